public import Foundation

/// One fact of the history, with how often and when it was last shown.
public struct HistoryEntry: Sendable, Hashable {
    /// The fact.
    public var text: String
    /// How many times it has been shown.
    public var timesSeen: Int
    /// When it was last shown.
    public var lastSeen: Date
    /// The environment it was last shown from.
    public var environment: String

    /// Creates an entry.
    public init(text: String, timesSeen: Int, lastSeen: Date, environment: String) {
        self.text = text
        self.timesSeen = timesSeen
        self.lastSeen = lastSeen
        self.environment = environment
    }
}
