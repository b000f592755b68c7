extension Duration {
    /// The duration in whole milliseconds, rounded to the nearest.
    var roundedMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000 + (attoseconds + 500_000_000_000_000) / 1_000_000_000_000_000
    }
}
