/// What the history knows about a fact just recorded.
public struct HistoryCounts: Sendable, Hashable {
    /// How many times this fact has been shown, including this time.
    public var timesSeen: Int
    /// How many different facts the history holds.
    public var factsStored: Int

    /// Creates counts.
    public init(timesSeen: Int, factsStored: Int) {
        self.timesSeen = timesSeen
        self.factsStored = factsStored
    }
}
