import Dispatch
import Testing

@testable import Weft

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Main-actor state, as a view model is: it can only be made on the main actor.
@MainActor
final class ViewModel: Sendable {
    let id: Int
    /// Whether it was made where Weft says the main actor runs (asked without trapping).
    let madeOnMainActor: Bool

    init(id: Int = 0) {
        // The runtime's own check, independent of Weft's: made anywhere else, the test crashes.
        MainActor.preconditionIsolated("a main-actor value made off the main actor")
        self.id = id
        self.madeOnMainActor = MainActorIsolation.isCurrent
    }
}

protocol Screen: Sendable {}
extension ViewModel: Screen {}

/// A non-isolated service that needs a view model synchronously.
final class Coordinator: Sendable {
    let model: ViewModel
    init(model: ViewModel) { self.model = model }
}

/// Another actor to resolve from: neither the main actor nor a background task.
actor OtherActor {
    func run<T: Sendable>(_ body: @Sendable () -> T) -> T { body() }
    func runAsync<T: Sendable>(_ body: @Sendable () async -> T) async -> T { await body() }
}

/// Ends the process with a message if `body` has not returned within `seconds`: a deadlock
/// fails CI at once, with its name, instead of hanging it (a blocked main thread cannot be
/// cancelled, so no in-process time limit could end the test).
func withDeadlockGuard<T>(
    _ label: String, seconds: Int = 30, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
) async rethrows -> T {
    let alarm = DispatchWorkItem {
        let message = "DEADLOCK: \(label) did not finish within \(seconds) s\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        _exit(70)
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds), execute: alarm)
    defer { alarm.cancel() }
    return try await body()
}

@Suite("Isolation: main-actor factories")
struct IsolationTests {
    /// `require` from a task that is not on the main actor.
    static func requireOffMainActor<T: Sendable>(_ type: T.Type, from container: Container) async -> Result<
        T, ResolutionError
    > {
        await Task.detached {
            #expect(!MainActorIsolation.isCurrent)
            return Result { () throws(ResolutionError) in try container.require(type) }
        }.value
    }

    // MARK: The rules

    @Test("On the main actor, require runs a main-actor factory in place")
    @MainActor
    func syncOnMainActor() throws {
        let container = Container()
        let runs = Counter()
        container.register(ViewModel.self, lifetime: .singleton, isolation: MainActor.shared) {
            runs.increment()
            return ViewModel(id: 1)
        }
        let model = try container.require(ViewModel.self)
        #expect(model.madeOnMainActor && model.id == 1)
        #expect(container.resolve(ViewModel.self) === model)
        #expect(runs.value == 1)
    }

    @Test("Off the main actor, a synchronous resolve of an uncached main-actor service is a typed error")
    func syncOffMainActorThrows() async throws {
        let container = Container()
        let reported = Counter()
        container.diagnostics.onResolutionError = { _ in reported.increment() }
        container.register(ViewModel.self, lifetime: .singleton, isolation: .shared) { ViewModel() }
        container.register(Coordinator.self) { resolver in Coordinator(model: try resolver.resolve(ViewModel.self)) }

        let direct = await Self.requireOffMainActor(ViewModel.self, from: container)
        guard case .failure(let error) = direct else {
            Issue.record("expected requiresIsolation, got \(direct)")
            return
        }
        #expect(error.code == .requiresIsolation)
        #expect(error.key == ServiceKey(ViewModel.self) && error.path.isEmpty)
        #expect(error.isolation === MainActor.shared)
        #expect(error.description.contains("main actor") && error.description.contains("resolveAsync(ViewModel.self)"))

        let nested = await Self.requireOffMainActor(Coordinator.self, from: container)
        guard case .failure(let nestedError) = nested else {
            Issue.record("expected requiresIsolation, got \(nested)")
            return
        }
        #expect(nestedError.code == .requiresIsolation)
        #expect(nestedError.key == ServiceKey(ViewModel.self))
        #expect(nestedError.path == [ServiceKey(Coordinator.self)])
        #expect(nestedError.description.contains("needed by Coordinator"))
        #expect(reported.value == 2)

        // From another actor too; `resolve` reads nil and `resolveAsync` gives the value.
        let fromActor = await OtherActor().run { container.resolve(ViewModel.self) }
        #expect(fromActor == nil)
        #expect(ResolutionError.notRegistered(ServiceKey(Int.self), path: []).isolation == nil)
    }

    @Test("resolveAsync from anywhere hops to the main actor to create, and returns the value")
    func asyncHops() async throws {
        let container = Container()
        container.register(ViewModel.self, lifetime: .singleton, isolation: .shared) { ViewModel(id: 7) }
        container.register(Coordinator.self) { resolver in Coordinator(model: try resolver.resolve(ViewModel.self)) }
        let model = try await Task.detached { try await container.resolveAsync(ViewModel.self) }.value
        #expect(model.madeOnMainActor && model.id == 7)
        let fromActor = try await OtherActor().run { Task { try await container.resolveAsync(ViewModel.self) } }
            .value
        #expect(fromActor === model)
        // Once cached, any context gets it synchronously, a non-isolated factory included.
        #expect(try await Self.requireOffMainActor(ViewModel.self, from: container).get() === model)
        #expect(try await Self.requireOffMainActor(Coordinator.self, from: container).get().model === model)
    }

    @Test("Every lifetime: cached values are served anywhere, transients are made on the main actor each time")
    func lifetimes() async throws {
        let container = Container()
        let scope = container.createScope()
        for lifetime in [Lifetime.singleton, .scoped, .weak] {
            container.register(ViewModel.self, name: "\(lifetime)", lifetime: lifetime, isolation: .shared) {
                ViewModel()
            }
            let made = try await scope.resolveAsync(ViewModel.self, name: "\(lifetime)")
            #expect(made.madeOnMainActor)
            let again = await Task.detached { try? scope.require(ViewModel.self, name: "\(lifetime)") }.value
            #expect(again === made, "\(lifetime)")
        }
        container.register(ViewModel.self, lifetime: .transient, isolation: .shared) { ViewModel() }
        let first = try await scope.resolveAsync(ViewModel.self)
        let second = try await MainActor.run { try scope.require(ViewModel.self) }
        #expect(first !== second && first.madeOnMainActor && second.madeOnMainActor)
        #expect(await Self.requireOffMainActor(ViewModel.self, from: scope).errorCode == .requiresIsolation)
    }

    @Test("Arguments, names, contexts, also:, hooks and decorators work as for any registration")
    func sameFeatures() async throws {
        let container = Container()
        let hooked = Counter()
        container.register(ViewModel.self, isolation: .shared) { (_: Resolver, id: Int) in ViewModel(id: id) }
        container.register(ViewModel.self, name: "pair", isolation: .shared) { (_: Resolver, a: Int, b: Int) in
            ViewModel(id: a + b)
        }
        container.register(
            ViewModel.self, name: "screen", lifetime: .singleton, also: (any Screen).self, isolation: .shared
        ) { ViewModel(id: 3) }
        .onCreated { _, _ in
            #expect(MainActorIsolation.isCurrent)
            hooked.increment()
        }
        .decorated { model in
            #expect(MainActorIsolation.isCurrent)
            return model
        }
        container.register(ViewModel.self, name: "test", when: .test, isolation: .shared) { ViewModel(id: 9) }
        container.register(ViewModel.self, name: "test", isolation: .shared) { ViewModel(id: 0) }
        container.contexts = [.test]

        #expect(try await container.resolveAsync(ViewModel.self, argument: 5).id == 5)
        #expect(try await container.resolveAsync(ViewModel.self, name: "pair", arguments: 2, 3).id == 5)
        #expect(try await MainActor.run { try container.require(ViewModel.self, argument: 6) }.id == 6)
        let offMain = await Task.detached {
            Result { () throws(ResolutionError) in try container.require(ViewModel.self, argument: 6) }
        }.value
        #expect(offMain.errorCode == .requiresIsolation)

        let screen = try await Task.detached { try await container.resolveAsync((any Screen).self, name: "screen") }
            .value
        #expect((screen as? ViewModel)?.id == 3)
        #expect(hooked.value == 1)
        #expect(try await container.resolveAsync(ViewModel.self, name: "test").id == 9)
    }

    @Test("An also: alias follows its target's rules, whatever the target is registered with later")
    func aliases() async throws {
        let container = Container()
        container.register(ViewModel.self, lifetime: .singleton, also: (any Screen).self, isolation: .shared) {
            ViewModel(id: 1)
        }
        // Off the main actor, before the value exists: the error names the target, via the alias.
        let before = await Task.detached {
            Result { () throws(ResolutionError) in try container.require((any Screen).self) }
        }.value
        guard case .failure(let error) = before else {
            Issue.record("expected requiresIsolation, got \(before)")
            return
        }
        #expect(error.code == .requiresIsolation && error.key == ServiceKey(ViewModel.self))
        #expect(error.path == [ServiceKey((any Screen).self)])
        // Once made, the alias serves it anywhere, synchronously.
        let made = try await container.resolveAsync(ViewModel.self)
        let after = try await Task.detached { try container.require((any Screen).self) }.value
        #expect(after as? ViewModel === made)

        // A later registration for a context leaves the main-actor one in force, and the alias
        // still hops to it.
        let other = Container()
        other.register(ViewModel.self, name: "x", also: (any Screen).self, isolation: .shared) { ViewModel(id: 2) }
        other.register(ViewModel.self, name: "x", also: (any Screen).self, when: .preview) { _ async in
            await ViewModel(id: 3)
        }
        let hopped = try await Task.detached { try await other.resolveAsync((any Screen).self, name: "x") }.value
        #expect((hopped as? ViewModel)?.id == 2)
    }

    @Test("An async main-actor factory runs on the main actor; a synchronous resolve says it needs await")
    func asyncFactory() async throws {
        let container = Container()
        container.register(ViewModel.self, lifetime: .singleton, isolation: .shared) { _ async in ViewModel(id: 2) }
        await #expect(throws: ResolutionError.self) {
            try await MainActor.run { try container.require(ViewModel.self) }
        }
        let model = try await Task.detached { try await container.resolveAsync(ViewModel.self) }.value
        #expect(model.madeOnMainActor && model.id == 2)
        #expect(try await MainActor.run { try container.require(ViewModel.self) } === model)
    }

    @Test("A main-actor factory that resolves itself is a cycle, not a deadlock")
    func cycleOnMainActor() async {
        let container = Container()
        container.register(ViewModel.self, lifetime: .singleton, isolation: .shared) { resolver in
            _ = try resolver.resolve(ViewModel.self)
            return ViewModel()
        }
        await withDeadlockGuard("a main-actor singleton resolving itself") {
            let sync = await MainActor.run {
                Result { () throws(ResolutionError) in try container.require(ViewModel.self) }
            }
            #expect(sync.errorCode == .circularDependency)
            let viaHop = await Task.detached { () async -> ResolutionError.Code? in
                do throws(ResolutionError) {
                    _ = try await container.resolveAsync(ViewModel.self)
                    return nil
                } catch { return error.code }
            }.value
            #expect(viaHop == .circularDependency)
        }
    }

    // MARK: No launch deadlock

    /// How many rounds each contention test runs: 1,000, in CI too.
    static let rounds = 1_000

    /// Lets queued main-actor work (the background tasks' hops) run first, `times` times over.
    @MainActor
    static func yieldMainActor(times: Int) async {
        for _ in 0...times { await Task.yield() }
    }

    @Test(
        "8 background tasks and the main actor resolve one main-actor singleton: one instance, made on the main actor")
    @MainActor
    func contention() async throws {
        for round in 0..<Self.rounds {
            try await withDeadlockGuard("contention round \(round)") {
                let container = Container()
                let runs = Counter()
                container.register(ViewModel.self, lifetime: .singleton, isolation: .shared) {
                    runs.increment()
                    return ViewModel(id: round)
                }
                let background = (0..<8).map { _ in
                    Task.detached { try await container.resolveAsync(ViewModel.self) }
                }
                // Every other round, the tasks' hops get a head start on the main actor.
                if round % 2 == 1 { await Self.yieldMainActor(times: round % 7) }
                let onMain = try container.require(ViewModel.self)
                for task in background { #expect(try await task.value === onMain) }
                #expect(runs.value == 1 && onMain.madeOnMainActor)
            }
        }
    }

    @Test("A main-actor singleton needing a non-isolated singleton other tasks are making: every caller served")
    @MainActor
    func contentionThroughDependency() async throws {
        for round in 0..<Self.rounds {
            try await withDeadlockGuard("dependency round \(round)") {
                let container = Container()
                let runs = Counter()
                container.register(Service.self, lifetime: .singleton) {
                    runs.increment()
                    return Service(id: round)
                }
                container.register(Coordinator.self, lifetime: .singleton, isolation: .shared) { resolver in
                    Coordinator(model: ViewModel(id: try resolver.resolve(Service.self).id))
                }
                let background = (0..<8).map { index in
                    Task.detached {
                        if index % 2 == 0 { _ = try await container.resolveAsync(Service.self) }
                        return try await container.resolveAsync(Coordinator.self)
                    }
                }
                if round % 2 == 1 { await Self.yieldMainActor(times: round % 7) }
                let onMain = try container.require(Coordinator.self)
                for task in background { #expect(try await task.value === onMain) }
                #expect(runs.value == 1 && onMain.model.id == round)
            }
        }
    }

    @Test("The main actor never waits on a creation that needs it: it gets a typed error or the value")
    @MainActor
    func mainActorNeverWaitsForTheMainActor() async throws {
        for round in 0..<Self.rounds {
            try await withDeadlockGuard("no-wait round \(round)") {
                let container = Container()
                container.register(ViewModel.self, lifetime: .singleton, isolation: .shared) { ViewModel(id: round) }
                // Created off the main actor; its creation awaits the main actor.
                container.register(Coordinator.self, name: "async", lifetime: .singleton) { resolver async throws in
                    Coordinator(model: try await resolver.resolve(ViewModel.self))
                }
                // Created wherever it is first asked for; needs the main actor synchronously.
                container.register(Coordinator.self, name: "sync", lifetime: .singleton) { resolver in
                    Coordinator(model: try resolver.resolve(ViewModel.self))
                }
                let background = (0..<8).map { index in
                    Task.detached {
                        try? await container.resolveAsync(Coordinator.self, name: index % 2 == 0 ? "async" : "sync")
                    }
                }
                let async = Result { () throws(ResolutionError) in
                    try container.require(Coordinator.self, name: "async")
                }
                let sync = Result { () throws(ResolutionError) in try container.require(Coordinator.self, name: "sync")
                }
                #expect([nil, .requiresAsync].contains(async.errorCode), "\(async)")
                #expect([nil, .requiresIsolation].contains(sync.errorCode), "\(sync)")
                var made: [String: Coordinator] = [:]
                for (index, task) in background.enumerated() {
                    guard let value = await task.value else { continue }
                    let name = index % 2 == 0 ? "async" : "sync"
                    #expect(made[name, default: value] === value)
                    made[name] = value
                }
                let syncAfter = try container.require(Coordinator.self, name: "sync")
                let asyncAfter = try await container.resolveAsync(Coordinator.self, name: "async")
                #expect(syncAfter.model.id == round && asyncAfter.model.id == round)
            }
        }
    }

    // MARK: Property wrappers

    @MainActor
    final class MainActorScreen {
        @Injected var model: ViewModel?
        // A main-actor value cannot be a default expression (it is made off the main actor):
        // an optional with `nil` says "none" instead.
        @Factory var fresh: ViewModel? = nil

        init(container: Container) {
            _model = Injected(container: container)
            _fresh = Factory(wrappedValue: nil, container: container)
        }
    }

    final class PlainScreen: Sendable {
        let model: Injected<ViewModel>
        let fresh: Factory<ViewModel>

        init(container: Container, fallback: ViewModel) {
            model = Injected(container: container)
            fresh = Factory(wrappedValue: fallback, container: container)
        }
    }

    @Test("@Injected and @Factory in a main-actor type resolve main-actor services synchronously")
    @MainActor
    func wrappersOnMainActor() throws {
        let container = Container()
        container.register(ViewModel.self, isolation: .shared) { ViewModel(id: 4) }
        let screen = MainActorScreen(container: container)
        #expect(screen.model?.id == 4 && screen.model?.madeOnMainActor == true)
        #expect(screen.fresh?.id == 4)
        #expect(try screen.$fresh.make()?.id == 4)
    }

    @Test("Used off the main actor, the wrappers give the typed error")
    func wrappersOffMainActor() async {
        let container = Container()
        container.register(ViewModel.self, isolation: .shared) { ViewModel(id: 4) }
        let screen = await MainActor.run { PlainScreen(container: container, fallback: ViewModel(id: -1)) }
        let codes = await Task.detached { () -> [ResolutionError.Code?] in
            #expect(screen.model.wrappedValue == nil)
            #expect(screen.fresh.wrappedValue.id == -1)
            return [
                Result { () throws(ResolutionError) in try screen.model.resolve() }.errorCode,
                Result { () throws(ResolutionError) in try screen.fresh.make() }.errorCode,
            ]
        }.value
        #expect(codes == [.requiresIsolation, .requiresIsolation])
    }

    // MARK: validate()

    /// The view model, resolved without `await` (in an `async` factory, `resolve` would pick
    /// the `async` overload).
    static func synchronously(_ resolver: Resolver) throws(ResolutionError) -> ViewModel {
        try resolver.resolve(ViewModel.self)
    }

    @Test("validate() reports a non-isolated cached service that needs a main-actor one synchronously")
    func validateReportsIsolation() async {
        let container = Container()
        container.register(ViewModel.self, lifetime: .singleton, isolation: .shared) { ViewModel() }
        // Reported: made once, wherever first asked for, directly or through a transient.
        container.register(Coordinator.self, name: "singleton", lifetime: .singleton) { resolver in
            Coordinator(model: try resolver.resolve(ViewModel.self))
        }
        container.register(Coordinator.self, name: "via", lifetime: .scoped) { resolver in
            try resolver.resolve(Coordinator.self, name: "transient")
        }
        // Not reported: made by whoever asks, on the main actor, or with `await`.
        container.register(Coordinator.self, name: "transient") { resolver in
            Coordinator(model: try resolver.resolve(ViewModel.self))
        }
        container.register(Coordinator.self, name: "isolated", lifetime: .singleton, isolation: .shared) { resolver in
            Coordinator(model: try resolver.resolve(ViewModel.self))
        }
        container.register(Coordinator.self, name: "awaits", lifetime: .singleton) { resolver async throws in
            Coordinator(model: try await resolver.resolve(ViewModel.self))
        }
        // Reported: an async factory runs off the main actor, whatever its lifetime; named to
        // sort first, so that the view model is not made yet when it is validated, and again
        // to sort last, when it is (validation never serves it off the main actor).
        container.register(Coordinator.self, name: "a-async") { resolver async throws in
            Coordinator(model: try Self.synchronously(resolver))
        }
        container.register(Coordinator.self, name: "z-async") { resolver async throws in
            Coordinator(model: try Self.synchronously(resolver))
        }
        // Not reported: an async factory that runs on the main actor.
        container.register(Coordinator.self, name: "isolated-async", isolation: .shared) { resolver async throws in
            Coordinator(model: try Self.synchronously(resolver))
        }
        let report = await container.validate()
        let found = Set(
            report.problems.filter { $0.code == .requiresIsolation }.map {
                "\($0.service) → \($0.dependency.map(\.description) ?? "?")"
            })
        #expect(
            found == [
                "\"singleton\" Coordinator → ViewModel", "\"via\" Coordinator → ViewModel",
                "\"a-async\" Coordinator → ViewModel", "\"z-async\" Coordinator → ViewModel",
            ])
        #expect(report.problems.count == found.count, "\(report.problems)")
        #expect(
            report.problems.first { $0.code == .requiresIsolation }?.description.contains("isolation: MainActor.shared")
                == true)
    }
}

extension Result where Failure == ResolutionError {
    /// The error's code, or `nil` for a value.
    var errorCode: ResolutionError.Code? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}

/// A global actor other than the main actor.
@globalActor
actor StorageActor {
    static let shared = StorageActor()
}

@StorageActor
final class Store: Sendable {}

@Suite("Isolation: other actors")
struct OtherActorIsolationTests {
    @Test("An async factory isolated to another global actor is registered as any async factory and hops there")
    func otherGlobalActor() async throws {
        let container = Container()
        container.register(Store.self, lifetime: .singleton) { @StorageActor _ async in
            StorageActor.shared.preconditionIsolated("the factory runs on its actor")
            return Store()
        }
        let store = try await Task.detached { try await container.resolveAsync(Store.self) }.value
        let sync = Result { () throws(ResolutionError) in try container.require(Store.self) }
        #expect(try sync.get() === store)
    }
}
