import Testing

@testable import Weft

/// Every test runs against its own shared container, so they can run in parallel.
@Suite("Bootstrap family")
struct BootstrapTests {
    @Test("bootstrap swaps in a configured container and marks it bootstrapped")
    func bootstrap() async throws {
        try await Container.withIsolatedShared {
            #expect(!Container.isBootstrapped)
            #expect(throws: NotBootstrappedError.self) { try Container.ensureBootstrapped() }
            await Container.bootstrap { $0.register(Logger.self) { ConsoleLogger(name: "boot") } }
            #expect(Container.isBootstrapped)
            try Container.ensureBootstrapped()
            #expect(Container.shared.resolve(Logger.self)?.name == "boot")
        }
    }

    @Test("A throwing bootstrapAsync returns false and leaves the previous container intact")
    func atomicOnThrow() async throws {
        try await Container.withIsolatedShared {
            await Container.bootstrap { $0.register(Service.self, lifetime: .singleton) { Service(id: 1) } }
            let before = Container.shared
            let cached = try before.require(Service.self)
            let succeeded = await Container.bootstrapAsync { container in
                container.register(Service.self) { Service(id: 2) }
                container.register(Logger.self) { ConsoleLogger() }
                throw Boom()
            }
            #expect(!succeeded)
            #expect(Container.shared === before)
            #expect(try Container.shared.require(Service.self) === cached)
            #expect(Container.shared.resolve(Logger.self) == nil)
        }
    }

    @Test("ensureBootstrapped reports the last failed attempt")
    func ensureReportsFailure() async {
        await Container.withIsolatedShared {
            await Container.bootstrapAsync { _ in throw Boom() }
            let error = #expect(throws: NotBootstrappedError.self) { try Container.ensureBootstrapped() }
            #expect(error?.description.contains("The last bootstrap attempt failed: boom") == true)
        }
    }

    @Test("bootstrapMixed runs the sync part, then the async part, before swapping")
    func mixed() async {
        await Container.withIsolatedShared {
            await Container.bootstrapMixed(
                sync: { $0.register(Logger.self) { ConsoleLogger(name: "sync") } },
                async: { container in
                    await Task.yield()
                    let logger = container.resolve(Logger.self)
                    container.register(String.self, instance: "after \(logger?.name ?? "nothing")")
                }
            )
            #expect(Container.shared.resolve(String.self) == "after sync")
        }
    }

    @Test("bootstrapIfNeeded runs its closure exactly once across 200 racing callers")
    func ifNeededRace() async {
        await Container.withIsolatedShared {
            let runs = Counter()
            let results = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<200 {
                    group.addTask { await Container.bootstrapIfNeeded { _ in runs.increment() } }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(runs.value == 1)
            #expect(results.filter { $0 }.count == 1)
        }
    }

    @Test("A throwing bootstrapIfNeeded does not count; the next caller bootstraps")
    func ifNeededAfterFailure() async {
        await Container.withIsolatedShared {
            #expect(await Container.bootstrapIfNeeded { _ in throw Boom() } == false)
            #expect(!Container.isBootstrapped)
            #expect(await Container.bootstrapIfNeeded { $0.register(Service.self) { Service() } })
            #expect(await Container.bootstrapIfNeeded { _ in Issue.record("ran twice") } == false)
        }
    }

    @Test("bootstrapInTask bootstraps in the background into the caller's shared container")
    func inTask() async {
        await Container.withIsolatedShared {
            let task = Container.bootstrapInTask { $0.register(Logger.self) { ConsoleLogger(name: "task") } }
            #expect(await task.value)
            #expect(Container.shared.resolve(Logger.self)?.name == "task")
        }
    }

    @Test("update adds registrations atomically: readers see all of them or none", .timeLimit(.minutes(1)))
    func updateAtomic() async {
        await Container.withIsolatedShared {
            await Container.bootstrap { _ in }
            let container = Container.shared
            var torn = 0
            for round in 0..<10 {
                let keys = (0..<4_000).map { "r\(round)k\($0)" }
                let scanning = Signal()
                // Each key is read under its own lock, so a merge may land mid-scan: the scan can
                // see "absent…absent, present…present". With an atomic merge it never sees a key
                // present and a later one absent, which a key-by-key merge (in hash order) shows.
                let reader = Task {
                    var torn = 0
                    while !Task.isCancelled {
                        let present = keys.map { container.isRegistered(Int.self, name: $0) }
                        scanning.fire()
                        if let first = present.firstIndex(of: true), present[first...].contains(false) { torn += 1 }
                        if present.allSatisfy({ $0 }) { break }
                        await Task.yield()
                    }
                    return torn
                }
                await scanning.wait()
                await Container.update { aside in
                    for (index, key) in keys.enumerated() { aside.register(Int.self, name: key, instance: index) }
                }
                torn += await reader.value
            }
            #expect(torn == 0)
            #expect(Container.shared.resolve(Int.self, name: "r9k3999") == 3_999)
        }
    }

    @Test("update keeps cached singletons and can resolve existing registrations")
    func updateKeepsCaches() async throws {
        try await Container.withIsolatedShared {
            await Container.bootstrap { $0.register(Service.self, lifetime: .singleton) { Service(id: 1) } }
            let cached = try Container.shared.require(Service.self)
            await Container.update { aside in
                let id = aside.resolve(Service.self)?.id ?? -1
                aside.register(String.self, instance: "service \(id)")
            }
            #expect(try Container.shared.require(Service.self) === cached)
            #expect(Container.shared.resolve(String.self) == "service 1")
        }
    }

    @Test("resetForTesting clears registrations, caches and the bootstrapped flag")
    func reset() async throws {
        try await Container.withIsolatedShared {
            let runs = Counter()
            let configure: @Sendable (Container) -> Void = { container in
                container.register(Service.self, lifetime: .singleton) {
                    runs.increment()
                    return Service()
                }
            }
            await Container.bootstrap(configure)
            _ = try Container.shared.require(Service.self)
            await Container.resetForTesting()
            #expect(!Container.isBootstrapped)
            #expect(Container.shared.resolve(Service.self) == nil)
            await Container.bootstrap(configure)
            _ = try Container.shared.require(Service.self)
            #expect(runs.value == 2)
        }
    }

    @Test("Isolated shared containers never see each other's registrations", arguments: 0..<8)
    func isolation(index: Int) async {
        await Container.withIsolatedShared {
            await Container.bootstrap { $0.register(Int.self, instance: index) }
            await Task.yield()
            #expect(Container.shared.resolve(Int.self) == index)
        }
    }
}
