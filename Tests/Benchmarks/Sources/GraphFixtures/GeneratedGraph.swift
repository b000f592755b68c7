import Synchronization
import Weft

// The generated graphs (Graph191.swift, Graph2000.swift, from Sources/GraphGenerator) behind
// two protocols, so that every benchmark is written once for both sizes.

/// The floor of registering: each class's factory under its `ObjectIdentifier`, in a plain
/// dictionary, with nothing else a container keeps (lifetimes, sites, scopes, a lock).
public typealias FactoryTable = [ObjectIdentifier: @Sendable (Weft.Resolver) throws -> any Sendable]

/// A generated graph, as Weft registers and resolves it.
public protocol GeneratedGraph {
    associatedtype HandWired: HandWiredGraph
    associatedtype HandWiredLocked: HandWiredGraph & Sendable

    static var classCount: Int { get }
    static var edgeCount: Int { get }

    /// Registers every class, `lifetime: .singleton`, with a factory resolving its
    /// dependencies.
    static func register(in container: Weft.Container)

    /// Puts the same factories into `table`.
    static func register(in table: inout FactoryTable)

    /// One closure per class, in a shuffled order (not layer by layer), each resolving its
    /// class: `nil` if it failed, which ``verify()`` rules out before any benchmark runs.
    static var resolveAll: [@Sendable (Weft.Container) -> AnyObject?] { get }
}

/// The graph wired by hand: one lazily built stored property per class, and an accessor that
/// builds it from the accessors of its dependencies (the floor Coroneo calls "Simple").
public protocol HandWiredGraph: AnyObject {
    init()

    /// One closure per class calling its accessor, in the order of ``GeneratedGraph/resolveAll``.
    static var buildAll: [@Sendable (Self) -> AnyObject] { get }
}

extension GeneratedGraph {
    /// Builds the graph with Weft and with each hand-written wiring, and stops the process unless
    /// every class resolves, each to one instance, the same on a second pass: a broken fixture
    /// must stop the run rather than time a shortcut.
    public static func verify() {
        let container = Weft.Container()
        register(in: container)
        let resolved = resolveAll.map { $0(container) }
        let again = resolveAll.map { $0(container) }
        precondition(resolved.count == classCount, "\(Self.self): \(resolved.count) closures, not \(classCount)")
        precondition(resolved.allSatisfy { $0 != nil }, "\(Self.self): a class did not resolve")
        precondition(zip(resolved, again).allSatisfy { $0 === $1 }, "\(Self.self): a singleton was made twice")
        let identities = Set(resolved.compactMap { $0.map(ObjectIdentifier.init) })
        precondition(identities.count == classCount, "\(Self.self): two closures resolve one class")
        var table = FactoryTable()
        register(in: &table)
        precondition(table.count == classCount, "\(Self.self): \(table.count) factories, not \(classCount)")
        let handWired = HandWired()
        precondition(Set(HandWired.buildAll.map { ObjectIdentifier($0(handWired)) }).count == classCount)
        let locked = HandWiredLocked()
        precondition(Set(HandWiredLocked.buildAll.map { ObjectIdentifier($0(locked)) }).count == classCount)
    }
}

/// One class's instance in a locked hand-written wiring, and the lock held while it is built.
public final class Slot: Sendable {
    public let object = Mutex<AnyObject?>(nil)

    public init() {}
}
