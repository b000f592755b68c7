/// Fibonacci hashing: a word multiplied by 2^w/φ (w the word's width), whose top bits index an
/// open-addressing table of a power-of-two size. Far cheaper than `Hasher`, and it spreads
/// addresses that differ only in their middle bits, as type metadata and objects do.
///
/// The multiplier has the platform's word width: 64-bit platforms and 32-bit ones (watchOS's
/// arm64_32, WASI's wasm32) each get the golden ratio's bits, not a truncated 64-bit constant.
package enum FibonacciHashing {
    /// ⌊2^64/φ⌋, odd: also a 64-bit mixing constant on its own (`ServiceKey`'s hash).
    /// A computed constant, not a `static let`: a global would be read through its lazy
    /// initializer's check on every hash.
    @inlinable @inline(__always)
    package static var multiplier64: UInt64 { 0x9E37_79B9_7F4A_7C15 }

    /// ⌊2^w/φ⌋ for the platform's word width w.
    @inlinable @inline(__always)
    package static var wordMultiplier: UInt {
        UInt.bitWidth == 64 ? UInt(truncatingIfNeeded: 0x9E37_79B9_7F4A_7C15 as UInt64) : 0x9E37_79B9
    }

    /// The slot of `word` in a table of 2^(w − `shift`) slots: the product's top bits.
    /// `shift` is in `0..<w` (a table of at least two slots; the shift masks, as `&>>` does).
    @inlinable @inline(__always)
    package static func slot(of word: UInt, shift: Int) -> Int {
        Int(truncatingIfNeeded: (word &* wordMultiplier) &>> shift)
    }
}
