extension Duration {
    /// The duration in whole milliseconds, rounded to the nearest (halves away from zero); a
    /// duration beyond what `Int64` milliseconds hold (about 292 million years) gives
    /// `Int64.max` or `Int64.min`, so that describing any duration never traps.
    package var roundedMilliseconds: Int64 {
        if self >= .milliseconds(Int64.max) { return .max }
        if self <= .milliseconds(Int64.min) { return .min }
        let (seconds, attoseconds) = components
        let half: Int64 = attoseconds < 0 ? -500_000_000_000_000 : 500_000_000_000_000
        return seconds * 1_000 + (attoseconds + half) / 1_000_000_000_000_000
    }

    /// The duration in whole nanoseconds, rounded toward zero; `Int64.max` or `Int64.min`
    /// beyond what `Int64` nanoseconds hold (about 292 years), for APIs that take nanoseconds
    /// (metrics timers, SwiftNIO's `TimeAmount`).
    package var saturatingNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, sumOverflow) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        if sumOverflow { return seconds < 0 ? .min : .max }
        return sum
    }

    /// The duration in seconds, as a `Double` (Foundation's `TimeInterval`, display).
    package var secondsValue: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
