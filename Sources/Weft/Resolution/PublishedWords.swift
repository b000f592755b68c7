import Atomics

/// Where a container publishes its ``CacheTable``: one atomic reference, written under the
/// container's lock with release ordering and read without it with acquire ordering.
///
/// Unretained on purpose: ``CachedValues`` owns every snapshot it published for as long as the
/// container lives, so a reader never needs to retain one (no shared write on the read path).
///
/// The atomic words are the container's first stored property (``PublishedWords``), at a
/// fixed offset from its address: a read goes from the container to the table's slots with one
/// load between, where keeping them in an object of their own cost one dependent load more on
/// every dependency read.
// @unchecked: it points into a container, which the caller keeps alive, and only reads and
// writes its words atomically.
struct SnapshotSlot: @unchecked Sendable {
    private let words: UnsafeMutablePointer<UInt.AtomicRepresentation>

    /// The words of `container`: its first stored property, right after the object header (the
    /// same address the standard library's `_getUnsafePointerToStoredProperties` gives).
    @inline(__always)
    init(of container: Container) {
        words = _getUnsafePointerToStoredProperties(container).assumingMemoryBound(
            to: UInt.AtomicRepresentation.self)
    }

    /// The container's three published words (``PublishedWords``), by name.
    enum Word {
        case cache, transients, graphs
    }

    /// `word` as an atomic. The words are consecutive, ``PublishedWords/cache`` first (a test
    /// pins the layout).
    @inline(__always)
    private func atomic(_ word: Word) -> UnsafeAtomic<UInt> {
        switch word {
        case .cache: UnsafeAtomic(at: words)
        case .transients: UnsafeAtomic(at: words + 1)
        case .graphs: UnsafeAtomic(at: words + 2)
        }
    }

    /// The synchronous transient registration for `key` readers may run without the lock, if
    /// any; unretained as the values are.
    @inline(__always)
    func transient(for key: ServiceKey) -> (registration: Registration, owner: Container?)? {
        let bits = atomic(.transients).load(ordering: .acquiring)
        guard let address = UnsafeRawPointer(bitPattern: bits) else { return nil }
        return Unmanaged<TransientTable>.fromOpaque(address)._withUnsafeGuaranteedRef { $0.registration(for: key) }
    }

    /// Makes `table` the transient registrations readers see; the same rules as ``publish(_:)``.
    func publishTransients(_ table: TransientTable?) {
        atomic(.transients).store(Self.bits(of: table), ordering: .releasing)
    }

    /// The value the published snapshot holds for `key`, if any.
    ///
    /// Unretained: the container keeps every snapshot it published alive as long as it lives,
    /// and the caller is using the container.
    @inline(__always)
    func value(for key: ServiceKey) -> (any Sendable)? {
        let word = published
        guard word != 0 else { return nil }
        return CacheTable.withTable(published: word) { $0.value(for: key) }
    }

    /// The class instance the published snapshot holds for `key`, if its class is exactly the
    /// one whose metadata address is `isa`: probed from the published block itself
    /// (``CacheTable/object(for:ofExactly:published:)``).
    @inline(__always)
    func object(for key: ServiceKey, ofExactly isa: UInt) -> (object: AnyObject?, isPublished: Bool) {
        let word = published
        guard word != 0 else { return (nil, false) }
        return CacheTable.object(for: key, ofExactly: isa, published: word)
    }

    /// ``object(for:ofExactly:)`` for the unnamed key of the class whose metadata address is
    /// `isa`.
    @inline(__always)
    func object(forUnnamed isa: UInt) -> (object: AnyObject?, isPublished: Bool) {
        // The cache word, read in place: this is every cached resolve's read.
        let word = UnsafeAtomic<UInt>(at: words).load(ordering: .acquiring)
        guard word != 0 else { return (nil, false) }
        return CacheTable.object(forUnnamed: isa, ofExactly: isa, published: word)
    }

    /// The published table's ``CacheTable/publishedWord``, or 0 while none is published.
    @inline(__always)
    private var published: UInt { atomic(.cache).load(ordering: .acquiring) }

    /// Makes `snapshot` the table readers see. Call with the container's lock held, and keep
    /// `snapshot` alive for as long as the container lives.
    func publish(_ snapshot: CacheTable?) {
        atomic(.cache).store(snapshot?.publishedWord ?? 0, ordering: .releasing)
    }

    /// Whether the container or an ancestor ever held a `.graph` registration. Relaxed: a
    /// registration happens before the resolves that may meet it (as any registration does).
    @inline(__always)
    var seesGraphRegistrations: Bool { atomic(.graphs).load(ordering: .relaxed) != 0 }

    /// Notes that the container or an ancestor holds a `.graph` registration.
    func noteGraphRegistrations() {
        if !seesGraphRegistrations { atomic(.graphs).store(1, ordering: .relaxed) }
    }

    private static func bits(of object: AnyObject?) -> UInt {
        object.map { UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque()) } ?? 0
    }
}

/// The three atomic words of a ``SnapshotSlot``, stored in the container, read and written
/// only through the slot (``SnapshotSlot/Word``), atomically, never by name.
// @unchecked: the words are only ever read and written atomically, through their address.
struct PublishedWords: @unchecked Sendable {
    /// The published ``CacheTable``'s ``CacheTable/publishedWord``, 0 while none is. First: a
    /// cached resolve reads it at the container's first stored property's address.
    let cache = UInt.AtomicRepresentation(0)
    /// The published ``TransientTable``'s address, unretained; 0 while none is.
    let transients = UInt.AtomicRepresentation(0)
    /// 1 once the container or an ancestor holds a `.graph` registration.
    let graphs = UInt.AtomicRepresentation(0)

}
