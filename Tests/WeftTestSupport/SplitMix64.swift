/// A small, fast, seeded generator (SplitMix64): the same seed gives the same sequence on every
/// platform, so a failing random case runs again from its seed. The one generator of the
/// project's property and model-based tests.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// The generator whose first output follows `state`.
    public init(state: UInt64) { self.state = state }

    /// The generator of `seed`: `seed` advanced once, so that seed 0 starts as state 0 would
    /// after one step.
    public init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`; `bound` is positive.
    public mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
