/// The casts the compiler cannot check and the code around them proves: every bit cast of
/// `Sources/Weft`, and the one read of an existential's layout. Each says what its caller
/// must have established; under `WEFT_INTERNAL_CHECKS` the cheaper ones check it.
@usableFromInline
enum TrustedCasts {
    /// `object` as `T`.
    ///
    /// Contract: `T` is a class and `object` an instance of it (the caller got it from a probe
    /// that compared its class with `T`, or cast it).
    @inlinable @inline(__always)
    static func object<T>(_ object: AnyObject, as type: T.Type) -> T {
        unsafeBitCast(object, to: T.self)
    }

    /// `value` if its type is exactly `T`, as almost every resolved value is (a factory's
    /// result, boxed as the type it was registered with): two metadata pointers compared, where
    /// `as?` runs the runtime's general dynamic cast. Safe for any `Boxed` and `T`: the cast
    /// happens only when they are the same type.
    @inlinable @inline(__always)
    static func exactly<T, Boxed>(_ value: Boxed, as type: T.Type) -> T? {
        guard Boxed.self == T.self else { return nil }
        return unsafeBitCast(value, to: T.self)
    }

    /// The class instance in `existential` if its class is exactly `T`, moved out: the reference
    /// the existential held is the one returned, and `existential` is left holding `()`. For a
    /// `T` that is not a class (decided when `T` is specialized), `nil` at once. Safe for any
    /// `T`: see ``reference(in:ofExactly:)``.
    @inlinable @inline(__always)
    static func takeObject<T>(_ existential: inout any Sendable, ofExactly type: T.Type) -> T? {
        guard T.self is AnyObject.Type,
            let object = takeObject(&existential, ofExactly: UInt(bitPattern: ObjectIdentifier(T.self)))
        else { return nil }
        return unsafeBitCast(object, to: T.self)
    }

    /// ``takeObject(_:ofExactly:)-(_,T.Type)`` past its generic part: not generic, so that the
    /// specializations of ``Container/cast(_:_:)`` for each class stay one merged function.
    @usableFromInline @inline(never)
    static func takeObject(_ existential: inout any Sendable, ofExactly type: UInt) -> AnyObject? {
        guard let reference = reference(in: &existential, ofExactly: type) else { return nil }
        // The payload is moved out: what is left to destroy must own nothing.
        withUnsafeMutablePointer(to: &existential) { $0.initialize(to: ()) }
        return Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: reference.bits).unsafelyUnwrapped)
            .takeRetainedValue()
    }

    /// The address of the class instance `existential` holds (not retained: `existential`
    /// does), if the boxed type is the one at `type`, which must be a class's metadata.
    ///
    /// Contract (the existential's layout, pinned by `ExistentialLayoutTests`): an
    /// `any Sendable` is three words of inline buffer and the boxed type's metadata address in
    /// the fourth; a class reference is kept inline, in the first word. Two loads, where opening
    /// the existential reads the type's metadata and copies the value through its witness.
    ///
    /// Through a pointer to the existential itself: handed to a generic function taking the
    /// value (`withUnsafeBytes(of:)`), an existential would be opened, its boxed value passed.
    @inline(__always)
    static func reference(in existential: inout any Sendable, ofExactly type: UInt) -> ObjectAddress? {
        let bits = withUnsafeMutablePointer(to: &existential) { boxed -> UInt? in
            let words = UnsafeRawPointer(boxed)
            guard words.load(fromByteOffset: 3 * MemoryLayout<UInt>.stride, as: UInt.self) == type else { return nil }
            let reference = words.load(as: UInt.self)
            return reference == 0 ? nil : reference
        }
        #if WEFT_INTERNAL_CHECKS
            precondition(MemoryLayout<any Sendable>.size == 4 * MemoryLayout<UInt>.stride, "an existential is 4 words")
            precondition(unsafeBitCast(type, to: Any.Type.self) is AnyClass, "asked for a reference of a value type")
            if let bits {
                let object = classInstance(existential)
                precondition(
                    object.map { UInt(bitPattern: ObjectIdentifier($0)) } == bits,
                    "the existential's first word is not its class instance")
            }
        #endif
        return bits.map(ObjectAddress.init(bits:))
    }

    /// `value` as a plain reference if it is a class instance, else `nil`.
    ///
    /// The existential is opened, so that the check reads the type's metadata and the reference
    /// is a bit cast: `value as AnyObject` first looks for bridging conformances, a search of
    /// the runtime's conformance cache on every call. Safe: the bit cast happens only when the
    /// boxed type is a class.
    // History: that search was a fifth of a cold build's time.
    @inline(__always)
    static func classInstance(_ value: any Sendable) -> (any AnyObject & Sendable)? {
        func open<Value: Sendable>(_ value: Value) -> (any AnyObject & Sendable)? {
            // A class instance that was `Sendable` as a value stays so as a reference.
            Value.self is AnyClass ? unsafeBitCast(value, to: (any AnyObject & Sendable).self) : nil
        }
        if let object = open(value) { return object }
        // A class-bound existential (a factory of `any Coordinator`, say) stays one inside
        // `any Sendable`, and opens as the existential: its dynamic type is the class.
        guard type(of: value) is AnyClass else { return nil }
        return unsafeBitCast(value as AnyObject, to: (any AnyObject & Sendable).self)
    }

    /// `object` as the `Sendable` value it was stored as.
    ///
    /// Contract: `object` was made from a `Sendable` value (``WeakReference`` holds only those);
    /// only its static type was lost.
    @inline(__always)
    static func sendable(_ object: AnyObject) -> any AnyObject & Sendable {
        // `as AnyObject`: a bare existential argument would be opened to its dynamic type.
        unsafeBitCast(object as AnyObject, to: (AnyObject & Sendable).self)
    }

    /// `value` as `any Sendable`.
    ///
    /// Contract: the value is `Sendable` (resolving `T?` boxes a `T: Sendable`). `Sendable` is a
    /// marker protocol, so `Any` and `any Sendable` share one layout.
    @inline(__always)
    static func sendable(_ value: Any) -> any Sendable {
        // `as Any`: a bare existential argument would be opened to its dynamic type.
        unsafeBitCast(value as Any, to: (any Sendable).self)
    }

    /// `factory`, a main-actor function, as a non-isolated one: what `MainActor.assumeIsolated`
    /// does once it has checked, which a synchronous function's representation allows.
    ///
    /// Contract: called on the main actor (``MainActorIsolation/isCurrent``).
    @inline(__always)
    static func nonisolated<T>(_ factory: @escaping @MainActor () throws -> T) -> () throws -> T {
        unsafeBitCast(factory, to: (() throws -> T).self)
    }
}

extension TrustedCasts {
    /// The type whose metadata is at `address`.
    ///
    /// Contract: `address` is a key's ``ServiceKey/typeAddress`` (a ``CacheTable`` slot keeps it
    /// as a word), so type metadata lives there for as long as the process does.
    @inline(__always)
    static func metatype(atAddress address: UInt) -> Any.Type {
        unsafeBitCast(address, to: Any.Type.self)
    }

    /// The address of `object`, which names it while it lives: what `ObjectIdentifier` holds,
    /// without converting `object` to `AnyObject` first (which retained and released it on every
    /// creation of the cold path). Safe: nothing is dereferenced.
    @inline(__always)
    static func address<Object: AnyObject>(of object: Object) -> UInt {
        UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
    }
}

/// The address of a class instance that its holder keeps alive while the address is used:
/// typed, so that it is never mistaken for a step, a table or a count. Made only by
/// ``TrustedCasts/reference(in:ofExactly:)``; ``CacheTable/insert(object:for:)`` retains the
/// instance it names.
struct ObjectAddress {
    let bits: UInt
}
