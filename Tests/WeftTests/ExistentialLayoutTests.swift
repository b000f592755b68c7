import Testing

@testable import Weft

/// Pins the layout of an `any Sendable` that ``TrustedCasts/reference(in:ofExactly:)`` reads:
/// four words, a class reference inline in the first, the boxed type's metadata in the fourth.
/// Should a toolchain change it, this fails before a resolve reads a wrong word.
@Suite("The existential layout the cache relies on")
struct ExistentialLayoutTests {
    final class Instance: Sendable {}
    final class Other: Sendable {}
    class Base: @unchecked Sendable {}
    final class Derived: Base, @unchecked Sendable {}
    struct Value: Sendable { let a = 1, b = 2, c = 3, d = 4 }
    protocol ClassBound: AnyObject, Sendable {}
    final class Conforming: ClassBound {}

    private func address(of type: Any.Type) -> UInt { UInt(bitPattern: ObjectIdentifier(type)) }

    @Test("An existential is four words: three of buffer, then the boxed type")
    func size() {
        #expect(MemoryLayout<any Sendable>.size == 4 * MemoryLayout<UInt>.stride)
        #expect(MemoryLayout<any Sendable>.alignment == MemoryLayout<UInt>.alignment)
    }

    @Test("A class instance is found in the first word when the fourth names its exact class")
    func classInstance() {
        let instance = Instance()
        var boxed: any Sendable = instance
        let found = TrustedCasts.reference(in: &boxed, ofExactly: address(of: Instance.self))
        #expect(found?.bits == UInt(bitPattern: ObjectIdentifier(instance)))
        #expect(TrustedCasts.reference(in: &boxed, ofExactly: address(of: Other.self)) == nil)
    }

    @Test("A subclass's instance is not read as its superclass's, nor a value as a class")
    func others() {
        var derived: any Sendable = Derived()
        #expect(TrustedCasts.reference(in: &derived, ofExactly: address(of: Base.self)) == nil)
        // A value too large for the buffer is boxed: its first word is a box, read only when the
        // fourth names a class (the contract: callers pass a class's address).
        var value: any Sendable = Value()
        #expect(TrustedCasts.reference(in: &value, ofExactly: address(of: Instance.self)) == nil)
    }

    @Test("A class-bound existential boxed as any Sendable holds its instance as its class")
    func classBound() {
        let instance = Conforming()
        var bound: any Sendable = instance as any ClassBound
        let found = TrustedCasts.reference(in: &bound, ofExactly: address(of: Conforming.self))
        #expect(found?.bits == UInt(bitPattern: ObjectIdentifier(instance)))
    }

    @Test("An instance moved out of its existential is the same instance, and the existential is left empty")
    func moveOut() {
        let instance = Instance()
        var boxed: any Sendable = instance
        let moved = TrustedCasts.takeObject(&boxed, ofExactly: Instance.self)
        #expect(moved === instance)
        #expect(boxed is Void)
        #expect(TrustedCasts.takeObject(&boxed, ofExactly: Instance.self) == nil)
    }
}
