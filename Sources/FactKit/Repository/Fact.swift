public import Foundation

/// A fact as shown to a person, with where it came from and what the history knows about it.
public struct Fact: Sendable, Hashable {
    /// The fact, as plain text.
    public var text: String
    /// The name of the environment it came from.
    public var environment: String
    /// How long the request took.
    public var latency: Duration
    /// How many times it has been shown, including this time; `nil` when it was not recorded
    /// in the history (none was available).
    public var timesSeen: Int?
    /// How many different facts the history holds, including this one; `nil` when it was not
    /// recorded.
    public var factsStored: Int?
    /// When it was fetched.
    public var fetchedAt: Date

    /// Whether this is the first time the fact was shown.
    var isNew: Bool { timesSeen == 1 }

    /// Creates a fact.
    init(
        text: String, environment: String, latency: Duration, timesSeen: Int?, factsStored: Int?, fetchedAt: Date
    ) {
        self.text = text
        self.environment = environment
        self.latency = latency
        self.timesSeen = timesSeen
        self.factsStored = factsStored
        self.fetchedAt = fetchedAt
    }
}
