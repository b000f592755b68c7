import Dispatch
import Foundation
import Testing
import WeftPrimitives

@testable import Weft

@Suite("Circular dependencies")
struct CycleTests {
    private func cyclicContainer(lifetime: Lifetime) -> Container {
        let container = Container()
        container.register(ServiceA.self, lifetime: lifetime) { resolver in
            _ = try resolver.resolve(ServiceB.self)
            return ServiceA()
        }
        container.register(ServiceB.self, lifetime: lifetime) { resolver in
            _ = try resolver.resolve(ServiceC.self)
            return ServiceB()
        }
        container.register(ServiceC.self, lifetime: lifetime) { resolver in
            _ = try resolver.resolve(ServiceA.self)
            return ServiceC()
        }
        return container
    }

    private let abca = [
        ServiceKey(ServiceA.self), ServiceKey(ServiceB.self), ServiceKey(ServiceC.self), ServiceKey(ServiceA.self),
    ]

    @Test("A cycle is reported with its full path A → B → C → A", arguments: Lifetime.allCases)
    func syncCycle(lifetime: Lifetime) {
        // A `.scoped` service is resolved from a scope: from the root it is an error before any
        // cycle (`Diagnostics.validatesScopes`, on in a debug build).
        let registering = cyclicContainer(lifetime: lifetime)
        let container = lifetime == .scoped ? registering.createScope() : registering
        let error = #expect(throws: ResolutionError.self) { try container.require(ServiceA.self) }
        guard let failure = error, failure.code == .circularDependency else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        let cycle = failure.cycle
        #expect(cycle == abca)
        // Each service of the loop with where it was registered (the helper above registers them).
        #expect(
            error?.description.hasPrefix(
                "Circular dependency: ServiceA → ServiceB → ServiceC → ServiceA (registered: "
                    + "ServiceA at WeftTests/CycleTests.swift:") == true)
        #expect(Set(failure.sites.keys) == Set(abca))
    }

    @Test("A cycle through transient and cached steps alike is reported with its full path")
    func mixedLifetimeCycle() {
        // Transient steps live on the stack, cached ones on the heap: the path crosses both.
        let container = Container()
        container.register(ServiceA.self) { resolver in
            _ = try resolver.resolve(ServiceB.self)
            return ServiceA()
        }
        container.register(ServiceB.self, lifetime: .singleton) { resolver in
            _ = try resolver.resolve(ServiceC.self)
            return ServiceB()
        }
        container.register(ServiceC.self) { resolver in
            _ = try resolver.resolve(ServiceA.self)
            return ServiceC()
        }
        let error = #expect(throws: ResolutionError.self) { try container.require(ServiceA.self) }
        guard let failure = error, failure.code == .circularDependency else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        let cycle = failure.cycle
        #expect(cycle == abca)
    }

    @Test("A synchronous resolve inside an async factory continues that factory's path")
    func syncInsideAsyncCycle() async {
        let container = Container()
        container.register(ServiceA.self, lifetime: .singleton) { [container] (_: Resolver) async throws in
            _ = try container.require(ServiceB.self)
            return ServiceA()
        }
        container.register(ServiceB.self) { [container] in
            _ = try container.require(ServiceA.self)
            return ServiceB()
        }
        let error = await #expect(throws: ResolutionError.self) { try await container.resolveAsync(ServiceA.self) }
        guard let failure = error, failure.code == .circularDependency else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        let cycle = failure.cycle
        #expect(cycle == [ServiceKey(ServiceA.self), ServiceKey(ServiceB.self), ServiceKey(ServiceA.self)])
    }

    @Test("A cycle through async factories is reported, not a hang")
    func asyncCycle() async {
        let container = Container()
        container.register(ServiceA.self, lifetime: .singleton) { resolver in
            _ = try await resolver.resolve(ServiceB.self)
            return ServiceA()
        }
        container.register(ServiceB.self, lifetime: .singleton) { resolver in
            _ = try await resolver.resolve(ServiceA.self)
            return ServiceB()
        }
        await #expect(throws: ResolutionError.self) { try await container.resolveAsync(ServiceA.self) }
    }

    @Test("A cycle through a captured container, not the resolver, is still detected")
    func capturedContainer() {
        let container = Container()
        container.register(ServiceA.self) { [container] in
            _ = try container.require(ServiceB.self)
            return ServiceA()
        }
        container.register(ServiceB.self) { [container] in
            _ = try container.require(ServiceA.self)
            return ServiceB()
        }
        let error = #expect(throws: ResolutionError.self) { try container.require(ServiceA.self) }
        guard let failure = error, failure.code == .circularDependency else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        let cycle = failure.cycle
        #expect(cycle == [ServiceKey(ServiceA.self), ServiceKey(ServiceB.self), ServiceKey(ServiceA.self)])
    }

    @Test("10,000 concurrent resolves of a cyclic async singleton all fail with the cycle")
    func concurrentCycle() async {
        let container = Container()
        container.register(ServiceA.self, lifetime: .singleton) { resolver in
            await Task.yield()
            _ = try await resolver.resolve(ServiceB.self)
            return ServiceA()
        }
        container.register(ServiceB.self, lifetime: .singleton) { resolver in
            await Task.yield()
            _ = try await resolver.resolve(ServiceA.self)
            return ServiceB()
        }
        let failures = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<10_000 {
                group.addTask {
                    do {
                        if index.isMultiple(of: 2) {
                            _ = try await container.resolveAsync(ServiceA.self)
                        } else {
                            _ = try await container.resolveAsync(ServiceB.self)
                        }
                        return false
                    } catch {
                        if (error as? ResolutionError)?.code == .circularDependency { return true }
                        return false
                    }
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(failures == 10_000)
    }

    @Test("Two tasks creating each other's dependency at once get a cycle error, not a deadlock")
    func crossTaskCycle() async {
        let container = Container()
        let bothStarted = Barrier(parties: 2)
        container.register(ServiceA.self, lifetime: .singleton) { resolver in
            await bothStarted.arrive()
            _ = try await resolver.resolve(ServiceB.self)
            return ServiceA()
        }
        container.register(ServiceB.self, lifetime: .singleton) { resolver in
            await bothStarted.arrive()
            _ = try await resolver.resolve(ServiceA.self)
            return ServiceB()
        }
        async let a: Bool = (try? await container.resolveAsync(ServiceA.self)) == nil
        async let b: Bool = (try? await container.resolveAsync(ServiceB.self)) == nil
        let (aFailed, bFailed) = await (a, b)
        #expect(aFailed && bFailed)
    }

    /// Two threads making synchronous singletons, each inside its factory when it asks for the
    /// other's: the creators' steps are on their stacks, and each waiter copies the other's to
    /// the heap. One copy per step, whichever thread makes it, or the wait-for graph would not
    /// see the cycle and both threads would wait forever.
    @Test(
        "Two threads making synchronous singletons that need each other get a cycle error, not a deadlock",
        arguments: [false, true])
    func crossThreadCycle(throughTransient: Bool) async throws {
        let container = Container()
        let (aStarted, bStarted) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        container.register(ServiceA.self, lifetime: .singleton) { resolver in
            aStarted.signal()
            bStarted.wait()
            if throughTransient {
                _ = try resolver.resolve(ServiceC.self)
            } else {
                _ = try resolver.resolve(ServiceB.self)
            }
            return ServiceA()
        }
        // A transient between the singletons: a stack step of its own in the waiter's path.
        container.register(ServiceC.self) { resolver in
            _ = try resolver.resolve(ServiceB.self)
            return ServiceC()
        }
        container.register(ServiceB.self, lifetime: .singleton) { resolver in
            bStarted.signal()
            aStarted.wait()
            _ = try resolver.resolve(ServiceA.self)
            return ServiceB()
        }
        let errors = Locked<[ResolutionError]>([])
        await withDeadlockGuard("two threads making each other's singleton") {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                let group = DispatchGroup()
                for key in [ServiceKey(ServiceA.self), ServiceKey(ServiceB.self)] {
                    DispatchQueue.global().async(group: group) {
                        do throws(ResolutionError) {
                            _ =
                                try key == ServiceKey(ServiceA.self)
                                ? container.require(ServiceA.self) as any Sendable : container.require(ServiceB.self)
                        } catch {
                            errors.withLock { $0.append(error) }
                        }
                    }
                }
                group.notify(queue: .global()) { done.resume() }
            }
        }
        let failures = errors.withLock { $0 }
        #expect(failures.count == 2)
        // The thread that closed the cycle names it; the other fails with it, in its own path.
        let both: Set = [ServiceKey(ServiceA.self), ServiceKey(ServiceB.self)]
        #expect(failures.contains { $0.code == .circularDependency && both.isSubset(of: $0.cycle) })
    }

    /// The cold path looks for no cycle: a singleton's step is in the path only while it is
    /// being made. Replacing its registration while its factory runs breaks that; the cycle
    /// the new factory closes is then found one step later.
    @Test("A singleton whose factory replaces its registration with one that needs it gets a cycle error")
    func cycleThroughReplacedRegistration() {
        let container = Container()
        container.register(ServiceA.self, lifetime: .singleton) { resolver in
            container.register(ServiceA.self, lifetime: .singleton) { resolver in
                _ = try resolver.resolve(ServiceA.self)
                return ServiceA()
            }
            _ = try resolver.resolve(ServiceA.self)
            return ServiceA()
        }
        #expect {
            try container.require(ServiceA.self)
        } throws: { error in
            (error as? ResolutionError)?.code == .circularDependency
                && (error as? ResolutionError)?.cycle == [ServiceKey(ServiceA.self), ServiceKey(ServiceA.self)]
        }
    }

    @Test("The same dependency resolved twice in one graph is not a cycle")
    func diamond() throws {
        let container = Container()
        container.register(ServiceC.self) { ServiceC() }
        container.register(ServiceB.self) { resolver in
            _ = try resolver.resolve(ServiceC.self)
            return ServiceB()
        }
        container.register(ServiceA.self) { resolver in
            _ = try resolver.resolve(ServiceB.self)
            _ = try resolver.resolve(ServiceC.self)
            return ServiceA()
        }
        _ = try container.require(ServiceA.self)
    }
}

/// Waits until `parties` tasks have arrived.
final class Barrier: Sendable {
    private let state: Locked<(remaining: Int, waiters: [CheckedContinuation<Void, Never>])>

    init(parties: Int) {
        state = Locked((parties, []))
    }

    func arrive() async {
        await withCheckedContinuation { continuation in
            let release = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.remaining -= 1
                state.waiters.append(continuation)
                guard state.remaining <= 0 else { return [] }
                defer { state.waiters = [] }
                return state.waiters
            }
            release.forEach { $0.resume() }
        }
    }
}

@Suite("Cycles are steps in one container")
struct ResolvingContainerCycleTests {
    struct A: Sendable {}
    struct B: Sendable {}
    struct C: Sendable {}

    @Test("A key resolved again in another container is not a cycle (root A → B, C → A; child B → C)")
    func sameKeyOtherContainer() async throws {
        let root = Container()
        root.register(A.self) { r in
            _ = try r.resolve(B.self)
            return A()
        }
        root.register(B.self) { B() }
        root.register(C.self, lifetime: .singleton) { r in
            _ = try r.resolve(A.self)
            return C()
        }
        let child = Container(parent: root)
        child.register(B.self) { r in
            _ = try r.resolve(C.self)
            return B()
        }
        // A in child → B (child's) → C (root's singleton, resolving in root) → A in root → B (root's): ends.
        _ = try child.require(A.self)
        // No cycle; only the real captive dependency (the singleton C keeps one transient A).
        #expect(
            await child.validate().problems == [
                .captiveDependency(singleton: ServiceKey(C.self), dependency: ServiceKey(A.self), lifetime: .transient)
            ])
    }

    @Test("A real cycle across containers is still reported with its path")
    func realCycleAcrossContainers() {
        let root = Container()
        root.register(A.self) { r in
            _ = try r.resolve(B.self)
            return A()
        }
        root.register(B.self) { r in
            _ = try r.resolve(A.self)
            return B()
        }
        let child = Container(parent: root)
        let error = #expect(throws: ResolutionError.self) { try child.require(A.self) }
        guard let failure = error, failure.code == .circularDependency else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        let cycle = failure.cycle
        #expect(cycle == [ServiceKey(A.self), ServiceKey(B.self), ServiceKey(A.self)])
    }
}

@Suite("Deep resolution paths")
struct DeepPathTests {
    struct Node: Sendable { let depth: Int }

    /// A chain `n0 → n1 → … → n(depth-1)` of transients, each a named `Node`.
    private func chain(_ depth: Int, closingAt loop: Int? = nil) -> Container {
        let container = Container()
        for level in 0..<depth {
            container.register(Node.self, name: "n\(level)") { r in
                if level + 1 < depth { return Node(depth: try r.resolve(Node.self, name: "n\(level + 1)").depth + 1) }
                if let loop { _ = try r.resolve(Node.self, name: "n\(loop)") }
                return Node(depth: 1)
            }
        }
        return container
    }

    /// `body` on a thread of its own with a 64 MB stack: a path 1,000 steps deep needs more
    /// stack than a test's thread has in a build under AddressSanitizer, whose frames are larger.
    private func onLargeStack<R: Sendable>(_ body: @escaping @Sendable () throws -> R) throws -> R {
        let result = Locked<Result<R, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            result.withLock { $0 = Result { try body() } }
            done.signal()
        }
        thread.stackSize = 64 << 20
        thread.start()
        done.wait()
        guard let outcome = result.withLock({ $0 }) else { throw CancellationError() }
        return try outcome.get()
    }

    @Test("A chain 1,000 transients deep resolves")
    func deepChain() throws {
        let container = chain(1_000)
        #expect(try onLargeStack { try container.require(Node.self, name: "n0").depth } == 1_000)
    }

    @Test("A cycle at the end of a deep chain is still reported, as exactly its loop", arguments: [10, 200, 600])
    func deepCycle(depth: Int) {
        let loopStart = depth - 3
        let container = chain(depth, closingAt: loopStart)
        let error = #expect(throws: ResolutionError.self) {
            try onLargeStack { try container.require(Node.self, name: "n0") }
        }
        guard let failure = error, failure.code == .circularDependency else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        let cycle = failure.cycle
        let loop = (loopStart..<depth).map { ServiceKey(Node.self, name: "n\($0)") }
        // The loop n(d-3) → n(d-2) → n(d-1) → n(d-3), reported from wherever it was found.
        #expect(cycle.count == loop.count + 1)
        #expect(cycle.first == cycle.last)
        #expect(Set(cycle) == Set(loop))
    }
}
