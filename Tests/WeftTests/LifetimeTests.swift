import Foundation
import Testing
import WeftPrimitives

@testable import Weft

/// Holds a service resolved inside its factory.
private struct Wrapper: Sendable {
    let service: Service
}

@Suite("Lifetimes")
struct LifetimeTests {
    @Test("A singleton is created once, on first resolve")
    func singleton() throws {
        let container = Container()
        let runs = Counter()
        container.register(Service.self, lifetime: .singleton) {
            runs.increment()
            return Service()
        }
        #expect(runs.value == 0)
        let first = try container.require(Service.self)
        let second = try container.require(Service.self)
        #expect(first === second)
        #expect(runs.value == 1)
    }

    @Test("A sync singleton is created exactly once under 10,000 concurrent resolves", .timeLimit(.minutes(1)))
    func singletonUnderContention() async throws {
        let container = Container()
        let runs = Counter()
        let key = ServiceKey(Service.self)
        container.register(Service.self, lifetime: .singleton) { () -> Service in
            runs.increment()
            // Keep the creation in flight until other threads wait for it: contention for sure.
            while container.state.withLock({ $0.waiterCount(of: key) }) < 2 { sched_yield() }
            return Service()
        }
        // 16 threads of their own (a pool may run only as many as there are cores, and a
        // blocked resolve would starve it) × 625 resolves.
        let ids = await withCheckedContinuation { continuation in
            let ids = Locked<[ObjectIdentifier]>([])
            let remaining = Locked(16)
            for _ in 0..<16 {
                Thread {
                    for _ in 0..<625 {
                        let id = (try? container.require(Service.self)).map(ObjectIdentifier.init)
                        ids.withLock { $0.append(id ?? ObjectIdentifier(Counter.self)) }
                    }
                    if remaining.withLock({
                        $0 -= 1
                        return $0
                    }) == 0 {
                        continuation.resume(returning: ids.withLock { $0 })
                    }
                }.start()
            }
        }
        #expect(runs.value == 1)
        #expect(ids.count == 10_000)
        #expect(Set(ids).count == 1)
        #expect(!ids.contains(ObjectIdentifier(Counter.self)))
    }

    /// A singleton resolved inside a factory starts on the cold path (its creator a step on its
    /// stack); `await` resolves go the general path (a heap frame). Each must wait for a
    /// creation the other started, in the one table of creations in flight.
    @Test(
        "A singleton being made on one path is waited for by the other: made once",
        arguments: ["cold path first", "general path first"])
    func singletonAcrossPaths(order: String) async throws {
        let container = Container()
        let (runs, started, release) = (Counter(), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let key = ServiceKey(Service.self)
        container.register(Service.self, lifetime: .singleton) { () -> Service in
            runs.increment()
            started.signal()
            release.wait()
            return Service()
        }
        // A transient asking for the singleton: a nested resolve, so the cold path for sure.
        container.register(Wrapper.self) { resolver in Wrapper(service: try resolver.resolve(Service.self)) }
        let coldPath = { @Sendable () -> ObjectIdentifier? in
            (try? container.require(Wrapper.self)).map { ObjectIdentifier($0.service) }
        }
        let generalPath = { @Sendable () async -> ObjectIdentifier? in
            (try? await container.resolveAsync(Service.self)).map(ObjectIdentifier.init)
        }
        let coldID = Locked<ObjectIdentifier?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let startCold = { @Sendable in
            Thread {
                coldID.withLock { $0 = coldPath() }
                finished.signal()
            }.start()
        }
        let hasStarted = {
            await withCheckedContinuation { done in
                DispatchQueue.global().async {
                    started.wait()
                    done.resume()
                }
            }
        }
        // A value made twice could leave a factory blocked: the guard ends the run with a
        // message instead of a hang.
        let generalID = await withDeadlockGuard("a singleton made on one path, asked for on the other") {
            () async -> ObjectIdentifier? in
            let generalID: ObjectIdentifier?
            if order == "cold path first" {
                startCold()
                await hasStarted()
                let waiter = Task { await generalPath() }
                await container.waitUntil(waiters: 1, for: key)
                release.signal()
                generalID = await waiter.value
            } else {
                // The general path makes the value on a thread of the shared pool, which its
                // factory blocks: a thread of its own starts the cold path and releases the
                // factory once that waits, so the pool's other tasks (other tests') never wait
                // on this test's turn to run.
                Thread {
                    started.wait()
                    startCold()
                    while container.state.withLock({ $0.waiterCount(of: key) }) < 1 { sched_yield() }
                    release.signal()
                }.start()
                generalID = await Task.detached { await generalPath() }.value
            }
            await withCheckedContinuation { done in
                DispatchQueue.global().async {
                    finished.wait()
                    done.resume()
                }
            }
            return generalID
        }
        let all = [coldID.withLock { $0 }, generalID]
        #expect(runs.value == 1)
        #expect(all.count == 2 && all.allSatisfy { $0 != nil } && Set(all).count == 1)
    }

    @Test("An async singleton is created exactly once under 10,000 concurrent resolves")
    func asyncSingletonUnderContention() async throws {
        let container = Container()
        let runs = Counter()
        let release = Signal()
        container.register(Service.self, lifetime: .singleton) { (_: Resolver) async -> Service in
            runs.increment()
            await release.wait()  // keep the creation in flight while the others arrive
            return Service()
        }
        let ids = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for index in 0..<10_000 {
                group.addTask { ObjectIdentifier(try await container.resolveAsync(Service.self)) }
                if index == 5_000 { release.fire() }
            }
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(runs.value == 1)
        #expect(ids.count == 1)
    }

    @Test("A singleton whose registration is replaced while its factory runs is handed out, not kept")
    func replacedWhileMade() throws {
        let container = Container()
        container.register(Service.self, lifetime: .singleton) {
            container.register(Service.self, lifetime: .singleton) { Service(id: 2) }
            return Service(id: 1)
        }
        // The resolve gets what its factory made; the value of a replaced registration is not kept.
        #expect(try container.require(Service.self).id == 1)
        let next = try container.require(Service.self)
        #expect(next.id == 2)
        #expect(try container.require(Service.self) === next)
    }

    @Test("A failed singleton creation is not cached: the next resolve tries again")
    func failedSingletonRetries() throws {
        let container = Container()
        let runs = Counter()
        container.register(Service.self, lifetime: .singleton) { () throws -> Service in
            runs.increment()
            if runs.value == 1 { throw Boom() }
            return Service()
        }
        #expect(container.resolve(Service.self) == nil)
        #expect(container.resolve(Service.self) != nil)
        #expect(runs.value == 2)
    }

    @Test("Scoped values are shared within a scope and distinct across scopes")
    func scoped() throws {
        let container = Container()
        container.register(Service.self, lifetime: .scoped) { Service() }
        let first = container.createScope()
        let second = container.createScope()
        let a1 = try first.require(Service.self)
        let a2 = try first.require(Service.self)
        let b = try second.require(Service.self)
        #expect(a1 === a2)
        #expect(a1 !== b)
    }

    @Test("A weak value is shared while held and created again once released")
    func weak() throws {
        let container = Container()
        let runs = Counter()
        container.register(Service.self, lifetime: .weak) {
            runs.increment()
            return Service()
        }
        var held: Service? = try container.require(Service.self)
        let again = try container.require(Service.self)
        #expect(held === again)
        #expect(runs.value == 1)
        held = nil
        _ = consume again
        _ = try container.require(Service.self)
        #expect(runs.value == 2)
    }

    @Test("A slow factory does not block resolving other services meanwhile", .timeLimit(.minutes(1)))
    func noLockDuringFactory() async throws {
        let container = Container()
        let started = Signal()
        let otherResolved = Signal()
        let inFlight = Locked(false)
        container.register(ServiceA.self, lifetime: .singleton) { (_: Resolver) async -> ServiceA in
            inFlight.withLock { $0 = true }
            started.fire()
            await otherResolved.wait()  // finishes only after B was resolved elsewhere
            inFlight.withLock { $0 = false }
            return ServiceA()
        }
        container.register(ServiceB.self, lifetime: .singleton) { ServiceB() }
        async let a = container.resolveAsync(ServiceA.self)
        await started.wait()
        _ = try await container.resolveAsync(ServiceB.self)
        // B was created and returned while A's factory was still running.
        #expect(inFlight.withLock { $0 })
        otherResolved.fire()
        _ = try await a
        #expect(!inFlight.withLock { $0 })
    }

    @Test(
        "A task waiting for another task's creation stops waiting when cancelled; the creation goes on",
        .timeLimit(.minutes(1)))
    func cancelledWaiter() async throws {
        let container = Container()
        let creating = Signal()
        let release = Signal()
        container.register(Service.self, lifetime: .singleton) { (_: Resolver) async -> Service in
            creating.fire()
            await release.wait()  // in flight until the end of the test
            return Service(id: 42)
        }
        let creator = Task { try await container.resolveAsync(Service.self) }
        await creating.wait()
        let waiter = Task { try await container.resolveAsync(Service.self) }
        waiter.cancel()
        let error = await #expect(throws: ResolutionError.self) { try await waiter.value }
        guard let failure = error, failure.code == .cancelled else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        let key = failure.key
        #expect(key == ServiceKey(Service.self))
        release.fire()
        #expect(try await creator.value.id == 42)
        #expect(try await container.resolveAsync(Service.self).id == 42)
    }
}

@Suite("Cancelling a creator")
struct CreatorCancellationTests {
    @Test("Cancelling the task creating a singleton does not fail the tasks waiting for it", .timeLimit(.minutes(1)))
    func waiterTakesOver() async throws {
        let container = Container()
        let creating = Signal()
        let release = Signal()
        let made = Counter()
        container.register(Service.self, lifetime: .singleton) { (_: Resolver) async throws -> Service in
            made.increment()
            let attempt = made.value
            if attempt == 1 {
                creating.fire()
                await release.wait()
                try Task.checkCancellation()  // the creator was cancelled: this attempt fails
            }
            return Service(id: attempt)
        }
        let creator = Task { try await container.resolveAsync(Service.self) }
        await creating.wait()
        let waiters = (0..<3).map { _ in Task { try await container.resolveAsync(Service.self) } }
        await container.waitUntil(waiters: 3, for: ServiceKey(Service.self))
        creator.cancel()
        release.fire()
        await #expect(throws: (any Error).self) { try await creator.value }
        var ids: Set<Int> = []
        for waiter in waiters { ids.insert(try await waiter.value.id) }
        #expect(ids == [2])
        #expect(made.value == 2)
        #expect(try await container.resolveAsync(Service.self).id == 2)
    }

    @Test(
        "A registration replaced while its singleton is made: its waiters get the old value, a later resolve the new one",
        .timeLimit(.minutes(1)))
    func replacedWhileInFlight() async throws {
        let container = Container()
        let creating = Signal()
        let release = Signal()
        container.register(Service.self, lifetime: .singleton) { (_: Resolver) async -> Service in
            creating.fire()
            await release.wait()
            return Service(id: 1)
        }
        let creator = Task { try await container.resolveAsync(Service.self) }
        await creating.wait()
        let waiter = Task { try await container.resolveAsync(Service.self) }
        await container.waitUntil(waiters: 1, for: ServiceKey(Service.self))
        container.register(Service.self, lifetime: .singleton) { Service(id: 2) }
        // The old creation is still in flight; the new registration's resolve does not wait for it.
        let replacement = try await container.resolveAsync(Service.self)
        #expect(replacement.id == 2)
        release.fire()
        #expect(try await creator.value.id == 1)
        #expect(try await waiter.value.id == 1)
        #expect(try await container.resolveAsync(Service.self) === replacement)
    }

    @Test(
        "A registration put back while its singleton is made finds the creation again: a later resolve waits for it",
        .timeLimit(.minutes(1)))
    func restoredWhileInFlight() async throws {
        let container = Container()
        let creating = Signal()
        let release = Signal()
        let made = Counter()
        container.register(Service.self, lifetime: .singleton) { (_: Resolver) async -> Service in
            made.increment()
            creating.fire()
            await release.wait()
            return Service(id: 1)
        }
        let creator = Task { try await container.resolveAsync(Service.self) }
        await creating.wait()
        let override = container.override(Service.self) { Service(id: 2) }
        #expect(try await container.resolveAsync(Service.self).id == 2)
        override.restore()
        let waiter = Task { try await container.resolveAsync(Service.self) }
        await container.waitUntil(waiters: 1, for: ServiceKey(Service.self))
        release.fire()
        #expect(try await creator.value.id == 1)
        #expect(try await waiter.value.id == 1)
        #expect(made.value == 1)
        #expect(try await container.resolveAsync(Service.self) === (try await waiter.value))
    }

    @Test(
        "A creator cancelled after its factory succeeded still hands the value to its waiters", .timeLimit(.minutes(1)))
    func cancelledCreatorKeepsValue() async throws {
        let container = Container()
        let creating = Signal()
        let release = Signal()
        let made = Counter()
        container.register(Service.self, lifetime: .singleton) { (_: Resolver) async -> Service in
            made.increment()
            creating.fire()
            await release.wait()
            return Service(id: 1)  // ignores cancellation
        }
        let creator = Task { try await container.resolveAsync(Service.self) }
        await creating.wait()
        let waiter = Task { try await container.resolveAsync(Service.self) }
        await container.waitUntil(waiters: 1, for: ServiceKey(Service.self))
        creator.cancel()
        release.fire()
        #expect(try await waiter.value.id == 1)
        #expect(made.value == 1)
    }
}
