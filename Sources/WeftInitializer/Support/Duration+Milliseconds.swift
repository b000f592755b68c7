extension Duration {
    /// The duration in whole milliseconds, rounded to the nearest (halves away from zero); a
    /// duration beyond what `Int64` milliseconds hold (about 292 million years) gives
    /// `Int64.max` or `Int64.min`, so that describing any duration never traps.
    var milliseconds: Int64 {
        if self >= .milliseconds(Int64.max) { return .max }
        if self <= .milliseconds(Int64.min) { return .min }
        let (seconds, attoseconds) = components
        let half: Int64 = attoseconds < 0 ? -500_000_000_000_000 : 500_000_000_000_000
        return seconds * 1_000 + (attoseconds + half) / 1_000_000_000_000_000
    }
}
