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

    /// Seconds with one decimal, rounded to the nearest tenth (halves away from zero), as people
    /// read a start-up's time: `29.9 s`, and `1.0 s` for 977 ms (never `0.9 s`).
    package var secondsText: String {
        let milliseconds = roundedMilliseconds
        let remainder = milliseconds % 100
        // Rounded without adding to `milliseconds`, which may be `Int64.max`.
        let tenths = milliseconds / 100 + (remainder >= 50 ? 1 : remainder <= -50 ? -1 : 0)
        let sign = tenths < 0 ? "-" : ""
        return "\(sign)\(tenths.magnitude / 10).\(tenths.magnitude % 10) s"
    }
}
