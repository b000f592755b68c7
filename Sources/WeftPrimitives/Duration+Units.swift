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

    /// Seconds as people read a start-up's time: to the nearest hundredth below 10 s, with a
    /// trailing zero dropped (`0.98 s` for 977 ms, `1.5 s`, `4.0 s`), and to the nearest tenth
    /// from there (`29.9 s`). Halves round away from zero; never truncated (`0.9 s` for 977 ms).
    package var secondsText: String {
        // Rounded once, from the exact value (9.9945 s is 9.99 s, not 10.0 s by way of 9,995 ms).
        let hundredths = rounded(toUnitsPerSecond: 100)
        let sign = hundredths < 0 ? "-" : ""
        if hundredths.magnitude < 1_000 {
            let fraction = hundredths.magnitude % 100
            let digits = fraction % 10 == 0 ? "\(fraction / 10)" : fraction < 10 ? "0\(fraction)" : "\(fraction)"
            return "\(sign)\(hundredths.magnitude / 100).\(digits) s"
        }
        let tenths = rounded(toUnitsPerSecond: 10)
        return "\(tenths < 0 ? "-" : "")\(tenths.magnitude / 10).\(tenths.magnitude % 10) s"
    }

    /// The duration in whole `1 / unitsPerSecond` seconds, rounded to the nearest (halves away
    /// from zero), saturating at `Int64.max` and `Int64.min`. `unitsPerSecond` divides 10¹⁸.
    private func rounded(toUnitsPerSecond unitsPerSecond: Int64) -> Int64 {
        let (seconds, attoseconds) = components  // attoseconds carry the sign of seconds
        let unit = 1_000_000_000_000_000_000 / unitsPerSecond  // attoseconds per unit
        let remainder = attoseconds % unit
        let carry: Int64 = remainder >= unit / 2 ? 1 : remainder <= -unit / 2 ? -1 : 0
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: unitsPerSecond)
        let (sum, sumOverflow) = whole.addingReportingOverflow(attoseconds / unit + carry)
        guard !overflow, !sumOverflow else { return seconds < 0 ? .min : .max }
        return sum
    }
}
