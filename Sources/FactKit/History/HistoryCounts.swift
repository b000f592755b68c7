/// What the history knows about a fact just recorded.
struct HistoryCounts: Sendable, Hashable {
    /// How many times this fact has been shown, including this time.
    var timesSeen: Int
    /// How many different facts the history holds.
    var factsStored: Int

    /// Creates counts.
    init(timesSeen: Int, factsStored: Int) {
        self.timesSeen = timesSeen
        self.factsStored = factsStored
    }
}
