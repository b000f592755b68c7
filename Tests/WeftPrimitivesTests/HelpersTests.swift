import Testing
import WeftPrimitives

@Suite("The small shared helpers: edit distance, Duration units")
struct HelpersTests {
    @Test(
        "Edit distance counts insertions, deletions and substitutions of characters",
        arguments: [
            ("kitten", "sitting", 3), ("", "abc", 3), ("abc", "", 3), ("", "", 0), ("same", "same", 0),
            ("flaw", "lawn", 2), ("café", "cafe", 1), ("🐈", "🐈‍⬛", 1), ("resolve", "reslove", 2),
        ])
    func editDistances(a: String, b: String, distance: Int) {
        #expect(editDistance(a, b) == distance)
        #expect(editDistance(b, a) == distance)
    }

    @Test("Seconds read to the nearest hundredth below 10 s, tenth above: 977 ms is 0.98 s, never 0.9 s")
    func secondsText() {
        #expect(Duration.milliseconds(977).secondsText == "0.98 s")
        #expect(Duration.milliseconds(949).secondsText == "0.95 s")
        #expect(Duration.milliseconds(1_000).secondsText == "1.0 s")
        #expect(Duration.milliseconds(1_500).secondsText == "1.5 s")
        #expect(Duration.milliseconds(1_004).secondsText == "1.0 s")
        #expect(Duration.milliseconds(1_005).secondsText == "1.01 s")
        #expect(Duration.milliseconds(40).secondsText == "0.04 s")
        #expect(Duration.milliseconds(4).secondsText == "0.0 s")
        #expect(Duration.milliseconds(9_994).secondsText == "9.99 s")
        #expect(Duration.milliseconds(9_995).secondsText == "10.0 s")
        #expect(Duration.nanoseconds(9_994_500_000).secondsText == "9.99 s")  // rounded once, not via 9,995 ms
        #expect(Duration.nanoseconds(4_900_000).secondsText == "0.0 s")  // 4.9 ms: not 5 ms, then 0.01 s
        #expect(Duration.milliseconds(29_950).secondsText == "30.0 s")
        #expect(Duration.seconds(30).secondsText == "30.0 s")
        #expect(Duration.milliseconds(-1_250).secondsText == "-1.25 s")
        #expect(Duration.milliseconds(-4).secondsText == "0.0 s")
        #expect(Duration.milliseconds(-12_350).secondsText == "-12.4 s")
        #expect(Duration.seconds(Int64.max).secondsText.hasSuffix(" s"))
        #expect(Duration.seconds(Int64.min).secondsText.hasSuffix(" s"))
    }

    @Test("Milliseconds round to the nearest, halves away from zero, and saturate")
    func roundedMilliseconds() {
        #expect(Duration.microseconds(1_499).roundedMilliseconds == 1)
        #expect(Duration.microseconds(1_500).roundedMilliseconds == 2)
        #expect(Duration.microseconds(-1_500).roundedMilliseconds == -2)
        #expect(Duration.microseconds(-1_499).roundedMilliseconds == -1)
        #expect(Duration.seconds(3).roundedMilliseconds == 3_000)
        #expect(Duration.seconds(Int64.max).roundedMilliseconds == .max)
        #expect(Duration.seconds(Int64.min).roundedMilliseconds == .min)
    }

    @Test("Nanoseconds round toward zero and saturate instead of overflowing")
    func saturatingNanoseconds() {
        #expect(Duration.milliseconds(250).saturatingNanoseconds == 250_000_000)
        #expect(Duration.nanoseconds(-7).saturatingNanoseconds == -7)
        #expect((Duration.nanoseconds(5) + .seconds(0.0000000004)).saturatingNanoseconds == 5)
        #expect(Duration.seconds(Int64.max / 1_000_000_000 + 1).saturatingNanoseconds == .max)
        #expect(Duration.seconds(Int64.min / 1_000_000_000 - 1).saturatingNanoseconds == .min)
    }

    @Test("Seconds as a Double keep the fraction")
    func secondsValue() {
        #expect(Duration.milliseconds(1_500).secondsValue == 1.5)
        #expect(Duration.milliseconds(-250).secondsValue == -0.25)
    }
}
