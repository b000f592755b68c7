import Foundation
import Testing
import WeftPrimitives
import WeftTestSupport

@testable import Weft

/// Seeded random sequences of register (sync and `async` factories, main-actor ones too, `T` and
/// `T?` dependencies) /
/// register(instance:) / register(owning:) / resolve (require, probe, async, `T?` sync and async) / scope / child /
/// update and install (factories and `instance:` mixed) / override / restore / reset /
/// reset(lifetime:) / reset(key) / unregister / removeAll operations, over every lifetime
/// (`.graph` too), resolving from background tasks, the main actor and another actor, run
/// against Weft and against a small reference model of its rules. After every
/// step the two must agree on which instance each resolve returns, how many times each factory
/// ran, and which keys are missing, cyclic or failing. A failing sequence is shrunk to a short
/// reproduction before it is reported.
///
/// `WEFT_MODEL_SEQUENCES` sets the number of sequences (the ThreadSanitizer pass runs fewer).
@Suite("Model-based: Weft agrees with a reference model")
struct ModelBasedTests {
    static let sequences = ProcessInfo.processInfo.environment["WEFT_MODEL_SEQUENCES"].flatMap(Int.init) ?? 5_000

    /// `WEFT_MODEL_COUNT=1` runs every sequence and reports how many disagree (for checking
    /// that an injected bug turns the test red), instead of shrinking the first.
    static let counts = ProcessInfo.processInfo.environment["WEFT_MODEL_COUNT"] == "1"

    @Test("Random operation sequences agree with the reference model", .timeLimit(.minutes(5)))
    func randomSequences() async {
        if Self.counts {
            var failing: [UInt64] = []
            for seed in 0..<UInt64(Self.sequences) {
                var generator = SplitMix64(seed: seed)
                if await Self.run(Operation.sequence(using: &generator)) != nil { failing.append(seed) }
            }
            if !failing.isEmpty {
                Issue.record("\(failing.count) of \(Self.sequences) sequences disagree; seeds \(failing.prefix(10))…")
            }
            return
        }
        for seed in 0..<UInt64(Self.sequences) {
            var generator = SplitMix64(seed: seed)
            let operations = Operation.sequence(using: &generator)
            guard let mismatch = await Self.run(operations) else { continue }
            let shrunk = await Self.shrink(operations)
            Issue.record(
                """
                Seed \(seed): \(mismatch)
                Shortest reproduction (\(shrunk.operations.count) of \(operations.count) operations): \(shrunk.mismatch)
                \(shrunk.operations.enumerated().map { "  \($0.offset): \($0.element)" }.joined(separator: "\n"))
                """)
            return
        }
    }

    /// Removes operations one at a time while the sequence still fails.
    static func shrink(_ operations: [Operation]) async -> (operations: [Operation], mismatch: String) {
        var current = operations
        var mismatch = await run(current) ?? ""
        var progress = true
        while progress {
            progress = false
            for index in current.indices.reversed() {
                var candidate = current
                candidate.remove(at: index)
                if let found = await run(candidate) {
                    current = candidate
                    mismatch = found
                    progress = true
                }
            }
        }
        return (current, mismatch)
    }

    /// Runs `operations` on a fresh shared container and the model; the first disagreement.
    static func run(_ operations: [Operation]) async -> String? {
        await Container.withIsolatedShared {
            let world = World()
            for (index, operation) in operations.enumerated() {
                if let mismatch = await world.perform(operation) {
                    return "operation \(index) (\(operation)): \(mismatch)"
                }
            }
            return nil
        }
    }
}

// MARK: - Operations

enum Operation: CustomStringConvertible, Sendable {
    case register(container: Int, registration: Registration)
    /// `register(_:name:also:instance:)`, forwarding `any Boxed` to it when `forwards`; with
    /// `owned`, `register(_:name:also:owning:)`, whose value the container disposes at shutdown.
    case registerInstance(container: Int, key: Int, forwards: Bool, owned: Bool = false)
    case resolve(container: Int, key: Int, style: ResolveStyle, context: ResolveContext = .background)
    case child(of: Int)
    /// Registers a layered graph of singletons on keys from ``Operation/graphKeys`` (each
    /// depending on nodes of the layer below, now and then on one of `k0`…`k3`), then resolves
    /// every node cold from `tasks` tasks at once, each in its own order, half synchronously.
    case deepGraph(container: Int, registrations: [Registration], tasks: Int, seed: UInt64)
    /// `Container.update` (or `updateAsync`) on the shared container: registers `registrations`,
    /// resolving `probe` inside.
    case update(registrations: [Registration], probe: Int?, isAsync: Bool)
    /// `install` of a module named `module` on a container.
    case install(container: Int, module: Int, registrations: [Registration], probe: Int?)
    case reset
    /// `reset(lifetime:)`, `reset(_:name:)`, `unregister(_:name:)`, `removeAll()` on a container.
    case resetLifetime(container: Int, lifetime: Lifetime)
    case resetKey(container: Int, key: Int)
    case unregister(container: Int, key: Int)
    case removeAll(container: Int)
    /// `override(_:name:lifetime:factory:)` on a container; the n-th override made in a sequence
    /// is restored by `restore(override: n)`.
    case override(container: Int, key: Int, lifetime: Lifetime)
    case restore(override: Int)
    /// `registrations` of a container: key, lifetime and whether a value is cached.
    case registrations(container: Int)
    /// `validate()` on a container (a root, a child or a scope).
    case validate(container: Int)
    /// Sets a container's `startup`: the first screen's keys and those marked after ready.
    case declareStartup(container: Int, firstScreen: [Int], afterReady: [Int])
    /// Sets a container's `contexts` to the contexts `x0`, `x1`, `test` (2) named.
    case setContexts(container: Int, contexts: [Int])
    /// `shutdown()` of a container: disposes what it cached, then resolves nothing.
    case shutdown(container: Int)
    /// Sets a container's `defaultLifetime`.
    case setDefaultLifetime(container: Int, lifetime: Lifetime)
    /// Sets a container's `diagnostics.validatesScopes` (on by default in a debug build).
    case setValidatesScopes(container: Int, on: Bool)
    /// A bootstrap of the shared container: `registrations` in a new container swapped in,
    /// unless the closure throws (`fails`; the forms that cannot throw ignore it).
    case bootstrap(kind: BootstrapKind, registrations: [Registration], fails: Bool)
    /// `Container.ensureBootstrapped()`.
    case ensureBootstrapped
    /// `checkHealth()` on a container: the values it and its ancestors hold.
    case checkHealth(container: Int)
    /// `install` of modules with dependencies on one another (by name), some of which may throw.
    case installModules(container: Int, modules: [ModuleSpec])

    struct ModuleSpec: CustomStringConvertible, Sendable {
        let name: Int
        let dependencies: [Int]
        let registrations: [Registration]
        let fails: Bool
        /// Keys (`Box` named `kN`) the module declares in `requirements`.
        var requirements: [Int] = []
        /// Modules (`MN`) the module declares in `replaces`.
        var replaces: [Int] = []
        var description: String {
            "M\(name)\(dependencies.isEmpty ? "" : " after \(dependencies.map { "M\($0)" })") { \(registrations) }"
                + (requirements.isEmpty ? "" : " requires \(requirements.map { "k\($0)" })")
                + (replaces.isEmpty ? "" : " replaces \(replaces.map { "M\($0)" })")
                + (fails ? " throws" : "")
        }
    }

    enum BootstrapKind: String, Sendable, CaseIterable {
        case bootstrap, bootstrapAsync, bootstrapMixed, bootstrapIfNeeded, bootstrapInTask
    }

    /// A dependency a factory resolves: `T`, or `T?` (`nil` when nothing registers `T`).
    struct Dependency: CustomStringConvertible, Sendable {
        let key: Int
        let isOptional: Bool
        var description: String { "k\(key)\(isOptional ? "?" : "")" }
    }

    struct Registration: CustomStringConvertible, Sendable {
        let key: Int
        let lifetime: Lifetime
        let dependencies: [Dependency]
        let fails: Bool
        /// An `async` factory, whose dependencies are resolved with `await`.
        var isAsync = false
        /// An `instance:` registration (inside `update` and `install` only): the rest is unused.
        var isInstance = false
        /// Registered `when:` the context ``Operation/context(_:)`` names is active.
        var context: Int?
        /// `.testValue { … }` or `.liveOnly()`, added before any decorator or hook.
        var double: TestDouble?
        /// `.decorated`: each value made is wrapped in a new one.
        var isDecorated = false
        /// `.onCreated`: a hook counts each value made.
        var hasHook = false
        /// Registered with no lifetime: the container's `defaultLifetime` at that moment.
        var usesDefaultLifetime = false
        /// Registered `also: (any Boxed).self`: that key forwards to this one.
        var forwards = false
        /// A factory of `(Resolver, Int)`: registered under the key with an `Int` argument.
        var takesArgument = false
        /// With ``takesArgument``: a factory of `(Resolver, Int, Int)` instead.
        var takesTwoArguments = false
        /// With ``takesArgument``: a factory of `(Resolver, Int, Int, Int)` instead.
        var takesThreeArguments = false
        /// Registered with `isolation: MainActor.shared`: a `@MainActor` factory.
        var isMainActor = false
        /// The factory yields its thread once it resolved its dependencies, so that
        /// concurrent resolves overlap (a deep graph's nodes are made in microseconds).
        var yields = false

        var description: String {
            if isInstance { return "k\(key) instance:" }
            let when =
                (usesDefaultLifetime ? " (default)" : "") + (forwards ? " also Boxed" : "")
                + (takesArgument
                    ? (takesThreeArguments ? " (Int, Int, Int)" : takesTwoArguments ? " (Int, Int)" : " (Int)") : "")
                + (context.map { " when \(Operation.context($0))" } ?? "")
                + (double.map { " .\($0)" } ?? "")
                + (isDecorated ? " decorated" : "")
                + (hasHook ? " onCreated" : "")
                + (isMainActor ? " @MainActor" : "")
            return "k\(key) \(lifetime)\(isAsync ? " async" : "")\(when) → \(dependencies)\(fails ? " fails" : "")"
        }
    }

    /// What a registration does in a test context.
    enum TestDouble: String, Sendable {
        /// `.testValue { … }`: a box made without the factory or its dependencies.
        case testValue
        /// `.liveOnly()`: refuses, unless overridden.
        case liveOnly
    }

    /// The context the model's number `index` names: `x0`, `x1`, or `test` for 2, which every
    /// root container of a test starts with (`Container.Context.defaults`).
    static func context(_ index: Int) -> Container.Context {
        index == 2 ? .test : Container.Context("x\(index)")
    }

    enum ResolveStyle: String, Sendable {
        /// `require(T.self)`, `resolve(T.self) -> T?`, `resolveAsync(T.self)`.
        case require, probe, async
        /// `require(T?.self)` and `resolveAsync(T?.self)`.
        case optional, optionalAsync
        /// `require((any Boxed).self)` and `resolveAsync((any Boxed).self)`: a key registered `also:`.
        case forwarded, forwardedAsync
        /// `require(T.self, argument: 7)`, `resolveAsync(T.self, argument: 7)`, `resolve(T.self, argument: 7)`.
        case argument, argumentAsync, argumentProbe
        /// `require(T.self, arguments: 7, 8)` and `resolveAsync(T.self, arguments: 7, 8)`.
        case arguments, argumentsAsync
        /// `require(T.self, arguments: 7, 8, 9)` and `resolveAsync(T.self, arguments: 7, 8, 9)`.
        case threeArguments, threeArgumentsAsync
        /// `resolveAsync(T.self)` from several tasks at once, half of them through `T?`.
        case contended
        /// The property wrappers: `@Injected` and `@WeakInjected` read twice (the second read
        /// keeps the first value), `$injected.resolve()`, and `@Factory` with a fallback.
        case injected, weakInjected, injectedResolve, factoryWrapper
        /// `require(T.self)` on the main actor while 8 background tasks `resolveAsync(T.self)`.
        case contendedWithMainActor

        /// Whether the resolve is synchronous: its context decides where factories run.
        var isSynchronous: Bool {
            switch self {
            case .async, .optionalAsync, .forwardedAsync, .argumentAsync, .argumentsAsync, .threeArgumentsAsync,
                .contended, .contendedWithMainActor:
                false
            default: true
            }
        }
    }

    /// Where a resolve is made from.
    enum ResolveContext: String, Sendable, CaseIterable {
        /// A task on the global executor (the test's own).
        case background
        /// The main actor: `MainActor.run` for a synchronous resolve, a `@MainActor` task otherwise.
        case mainActor
        /// An actor of the test's own.
        case otherActor
    }

    static let keyCount = 4
    static let lifetimes: [Lifetime] = [.transient, .singleton, .scoped, .weak, .graph]

    static func sequence(using generator: inout SplitMix64) -> [Operation] {
        var containers = 1
        var overrides = 0
        return (0..<(12 + generator.next(below: 16))).map { _ in
            let operation = random(containers: containers, overrides: overrides, using: &generator)
            switch operation {
            case .child, .reset: containers += 1
            case .override: overrides += 1
            default: break
            }
            return operation
        }
    }

    static func randomRegistration(staged: Bool = false, using generator: inout SplitMix64) -> Registration {
        let key = generator.next(below: keyCount)
        if staged, generator.next(below: 5) == 0 {
            return Registration(key: key, lifetime: .singleton, dependencies: [], fails: false, isInstance: true)
        }
        var registration = Registration(
            key: key,
            lifetime: lifetimes[generator.next(below: lifetimes.count)],
            dependencies: (0..<generator.next(below: 3)).map { _ in
                Dependency(key: generator.next(below: keyCount), isOptional: generator.next(below: 3) == 0)
            },
            fails: generator.next(below: 8) == 0,
            isAsync: generator.next(below: 5) == 0,
            context: generator.next(below: 6) == 0 ? generator.next(below: 3) : nil,
            double: [nil, nil, nil, nil, TestDouble.testValue, .liveOnly][generator.next(below: 6)],
            isDecorated: generator.next(below: 6) == 0,
            hasHook: generator.next(below: 6) == 0,
            usesDefaultLifetime: generator.next(below: 6) == 0,
            forwards: generator.next(below: 6) == 0,
            isMainActor: generator.next(below: 5) == 0
        )
        // Factories with arguments take no context and forward nothing (their `register` has neither).
        if !staged, generator.next(below: 8) == 0 {
            registration.takesArgument = true
            switch generator.next(below: 3) {
            case 0: registration.takesTwoArguments = true
            case 1: registration.takesThreeArguments = true
            default: break
            }
            registration.context = nil
            registration.forwards = false
        }
        return registration
    }

    static func random(containers: Int, overrides: Int, using generator: inout SplitMix64) -> Operation {
        let container = generator.next(below: containers)
        switch generator.next(below: 100) {
        case 0..<24:
            return .register(container: container, registration: randomRegistration(using: &generator))
        case 24..<27:
            return .registerInstance(
                container: container, key: generator.next(below: keyCount), forwards: generator.next(below: 4) == 0,
                owned: generator.next(below: 2) == 0)
        case 27..<29 where generator.next(below: 3) == 0:
            return .checkHealth(container: container)
        case 27..<29:
            return .registrations(container: container)
        case 29..<31 where generator.next(below: 3) == 0:
            func key() -> Int {
                generator.next(below: 3) == 0
                    ? graphKeys + generator.next(below: graphKeyCount) : generator.next(below: keyCount)
            }
            return .declareStartup(
                container: container, firstScreen: (0..<(1 + generator.next(below: 2))).map { _ in key() },
                afterReady: (0..<generator.next(below: 3)).map { _ in key() })
        case 29..<31:
            return .validate(container: container)
        case 31..<60:
            let styles: [ResolveStyle] = [
                .require, .require, .probe, .async, .optional, .optionalAsync, .forwarded, .forwardedAsync,
                .argument, .argumentAsync, .argumentProbe, .arguments, .argumentsAsync, .threeArguments,
                .threeArgumentsAsync, .contended, .injected,
                .weakInjected,
                .injectedResolve, .factoryWrapper, .contendedWithMainActor,
            ]
            let contexts = ResolveContext.allCases
            return .resolve(
                container: container, key: generator.next(below: keyCount),
                style: styles[generator.next(below: styles.count)],
                context: contexts[generator.next(below: contexts.count)])
        case 60..<66:
            return .child(of: container)
        case 66..<68:
            return deepGraph(container: container, using: &generator)
        case 68..<74:
            return .update(
                registrations: (0..<(1 + generator.next(below: 2))).map { _ in
                    randomRegistration(staged: true, using: &generator)
                },
                probe: generator.next(below: 2) == 0 ? generator.next(below: keyCount) : nil,
                isAsync: generator.next(below: 2) == 0)
        case 74..<80 where generator.next(below: 3) == 0:
            return .installModules(
                container: container,
                modules: (0..<(1 + generator.next(below: 3))).map { _ in
                    ModuleSpec(
                        name: generator.next(below: 4),
                        dependencies: (0..<generator.next(below: 2)).map { _ in generator.next(below: 4) },
                        registrations: (0..<generator.next(below: 2)).map { _ in randomRegistration(using: &generator)
                        },
                        fails: generator.next(below: 8) == 0,
                        requirements: (0..<generator.next(below: 2)).map { _ in generator.next(below: keyCount) },
                        replaces: generator.next(below: 3) == 0 ? [generator.next(below: 4)] : [])
                })
        case 74..<80:
            return .install(
                container: container, module: generator.next(below: 3),
                registrations: (0..<(1 + generator.next(below: 2))).map { _ in
                    randomRegistration(staged: true, using: &generator)
                },
                probe: generator.next(below: 2) == 0 ? generator.next(below: keyCount) : nil)
        case 80..<86:
            return .override(
                container: container, key: generator.next(below: keyCount),
                lifetime: lifetimes[generator.next(below: lifetimes.count)])
        case 86..<92 where overrides > 0:
            return .restore(override: generator.next(below: overrides))
        case 86..<93:
            return .resetLifetime(container: container, lifetime: lifetimes[generator.next(below: lifetimes.count)])
        case 93..<95:
            return .resetKey(container: container, key: generator.next(below: keyCount))
        case 95..<97:
            return .unregister(container: container, key: generator.next(below: keyCount))
        case 97..<98 where generator.next(below: 2) == 0:
            return .removeAll(container: container)
        case 97..<98:
            return .shutdown(container: container)
        case 98..<99 where generator.next(below: 3) == 0:
            let kinds = BootstrapKind.allCases
            return .bootstrap(
                kind: kinds[generator.next(below: kinds.count)],
                registrations: (0..<(1 + generator.next(below: 2))).map { _ in
                    randomRegistration(staged: true, using: &generator)
                },
                fails: generator.next(below: 4) == 0)
        case 98..<99 where generator.next(below: 3) == 0:
            return .ensureBootstrapped
        case 98..<99 where generator.next(below: 3) == 0:
            return .setValidatesScopes(container: container, on: generator.next(below: 2) == 0)
        case 98..<99 where generator.next(below: 2) == 0:
            return .setDefaultLifetime(
                container: container, lifetime: lifetimes[generator.next(below: lifetimes.count)])
        case 98..<99:
            return .setContexts(container: container, contexts: (0..<3).filter { _ in generator.next(below: 2) == 0 })
        default:
            return .reset
        }
    }

    /// The first key of ``deepGraph(container:registrations:tasks:seed:)``'s nodes: apart from
    /// the random keys and below the keys with arguments.
    static let graphKeys = 10
    /// How many keys a graph may take: 8 layers of at most 3 nodes.
    static let graphKeyCount = 24

    /// A layered graph 3 to 8 layers deep, 1 to 3 nodes wide: each node of a layer depends on
    /// some of the layer below (at least one).
    static func deepGraph(container: Int, using generator: inout SplitMix64) -> Operation {
        var layers: [[Int]] = []
        var next = graphKeys
        for _ in 0..<(3 + generator.next(below: 6)) {
            layers.append(Array(next..<(next + 1 + generator.next(below: 3))))
            next = layers.last!.last! + 1
        }
        var registrations: [Registration] = []
        for (depth, layer) in layers.enumerated() {
            for key in layer {
                var dependencies: [Dependency] = []
                if depth > 0 {
                    let below = layers[depth - 1]
                    dependencies = below.filter { _ in generator.next(below: 3) != 0 }.map {
                        Dependency(key: $0, isOptional: false)
                    }
                    if dependencies.isEmpty { dependencies = [Dependency(key: below[0], isOptional: false)] }
                }
                if generator.next(below: 8) == 0 {
                    dependencies.append(Dependency(key: generator.next(below: keyCount), isOptional: false))
                }
                var registration = Registration(
                    key: key, lifetime: .singleton, dependencies: dependencies, fails: false)
                registration.yields = true
                registrations.append(registration)
            }
        }
        return .deepGraph(
            container: container, registrations: registrations.shuffled(using: &generator),
            tasks: 2 + generator.next(below: 4), seed: generator.next())
    }

    /// This operation with container indices wrapped into `0..<containers`.
    func wrapped(containers count: Int) -> Operation {
        switch self {
        case .register(let c, let registration): .register(container: c % count, registration: registration)
        case .registerInstance(let c, let k, let forwards, let owned):
            .registerInstance(container: c % count, key: k, forwards: forwards, owned: owned)
        case .resolve(let c, let k, let style, let context):
            .resolve(container: c % count, key: k, style: style, context: context)
        case .child(let c): .child(of: c % count)
        case .deepGraph(let c, let registrations, let tasks, let seed):
            .deepGraph(container: c % count, registrations: registrations, tasks: tasks, seed: seed)
        case .install(let c, let module, let registrations, let probe):
            .install(container: c % count, module: module, registrations: registrations, probe: probe)
        case .resetLifetime(let c, let lifetime): .resetLifetime(container: c % count, lifetime: lifetime)
        case .resetKey(let c, let k): .resetKey(container: c % count, key: k)
        case .unregister(let c, let k): .unregister(container: c % count, key: k)
        case .removeAll(let c): .removeAll(container: c % count)
        case .override(let c, let k, let lifetime): .override(container: c % count, key: k, lifetime: lifetime)
        case .registrations(let c): .registrations(container: c % count)
        case .validate(let c): .validate(container: c % count)
        case .declareStartup(let c, let firstScreen, let afterReady):
            .declareStartup(container: c % count, firstScreen: firstScreen, afterReady: afterReady)
        case .setContexts(let c, let contexts): .setContexts(container: c % count, contexts: contexts)
        case .shutdown(let c): .shutdown(container: c % count)
        case .setDefaultLifetime(let c, let lifetime): .setDefaultLifetime(container: c % count, lifetime: lifetime)
        case .setValidatesScopes(let c, let on): .setValidatesScopes(container: c % count, on: on)
        case .checkHealth(let c): .checkHealth(container: c % count)
        case .installModules(let c, let modules): .installModules(container: c % count, modules: modules)
        case .update, .reset, .restore, .bootstrap, .ensureBootstrapped: self
        }
    }

    var description: String {
        switch self {
        case .register(let c, let registration): "c\(c).register(\(registration))"
        case .registerInstance(let c, let k, let forwards, let owned):
            "c\(c).register(k\(k)\(forwards ? ", also: Boxed" : ""), \(owned ? "owning" : "instance"):)"
        case .resolve(let c, let k, let style, let context): "c\(c).\(style)(k\(k)) from \(context)"
        case .child(let c): "new child of c\(c)"
        case .deepGraph(let c, let registrations, let tasks, _):
            "c\(c).register(\(registrations)), then every one cold from \(tasks) tasks"
        case .update(let registrations, let probe, let isAsync):
            "update\(isAsync ? "Async" : "") { register \(registrations)\(probe.map { "; resolve k\($0)" } ?? "") }"
        case .install(let c, let module, let registrations, let probe):
            "c\(c).install(M\(module) { register \(registrations)\(probe.map { "; resolve k\($0)" } ?? "") })"
        case .reset: "resetForTesting (a new shared container)"
        case .resetLifetime(let c, let lifetime): "c\(c).reset(lifetime: .\(lifetime))"
        case .resetKey(let c, let k): "c\(c).reset(k\(k))"
        case .unregister(let c, let k): "c\(c).unregister(k\(k))"
        case .removeAll(let c): "c\(c).removeAll()"
        case .override(let c, let k, let lifetime): "c\(c).override(k\(k), \(lifetime))"
        case .restore(let index): "override \(index).restore()"
        case .registrations(let c): "c\(c).registrations"
        case .validate(let c): "c\(c).validate()"
        case .declareStartup(let c, let firstScreen, let afterReady):
            "c\(c).startup = (first screen \(firstScreen.map { "k\($0)" }), after ready \(afterReady.map { "k\($0)" }))"
        case .setContexts(let c, let contexts): "c\(c).contexts = \(contexts.map { "\(Operation.context($0))" })"
        case .shutdown(let c): "c\(c).shutdown()"
        case .setDefaultLifetime(let c, let lifetime): "c\(c).defaultLifetime = .\(lifetime)"
        case .setValidatesScopes(let c, let on): "c\(c).diagnostics.validatesScopes = \(on)"
        case .bootstrap(let kind, let registrations, let fails):
            "\(kind) { register \(registrations)\(fails ? "; throw" : "") }"
        case .ensureBootstrapped: "ensureBootstrapped()"
        case .checkHealth(let c): "c\(c).checkHealth()"
        case .installModules(let c, let modules): "c\(c).install(\(modules))"
        }
    }
}

// MARK: - The system under test and the model, side by side

/// What the factories make: a serial number per instance and the instances of the
/// dependencies its factory resolved.
/// What a registration `also:` forwards to its `Box`.
protocol Boxed: Sendable {
    var serial: Int { get }
}

final class Box: Disposable, Boxed {
    let serial: Int
    /// `nil` for an optional dependency nothing registers.
    let dependencies: [Box?]
    private let ledger: Ledger

    init(serial: Int, dependencies: [Box?], ledger: Ledger) {
        self.serial = serial
        self.dependencies = dependencies
        self.ledger = ledger
    }

    func dispose() async throws { ledger.disposed(serial) }
}

extension Box: HealthCheckable {
    /// A status that names the box: healthy, degraded or unhealthy by its serial.
    static func status(of serial: Int) -> HealthStatus {
        switch serial % 3 {
        case 0: .unhealthy(reason: "#\(serial)")
        case 1: .degraded(reason: "#\(serial)")
        default: .healthy
        }
    }

    /// The serial a status names, if it names one.
    static func serial(fromStatus status: String) -> Int? {
        status.split(separator: "#").last.flatMap { Int($0) }
    }

    func healthCheck() async -> HealthStatus { Self.status(of: serial) }
}

/// Counters shared by the factories of one sequence; keeps every instance alive, so that a
/// `.weak` value never disappears behind the model's back.
final class Ledger: Sendable {
    private let state = Locked<(serial: Int, runs: [Int: Int], alive: [Box], disposed: [Int])>((0, [:], [], []))

    func make(registration: Int, dependencies: [Box?]) -> Box {
        state.withLock { state in
            state.serial += 1
            let box = Box(serial: state.serial, dependencies: dependencies, ledger: self)
            state.alive.append(box)
            return box
        }
    }

    func ran(_ registration: Int) { state.withLock { $0.runs[registration, default: 0] += 1 } }
    var runs: [Int: Int] { state.withLock { $0.runs } }

    private let reports = Locked(0)
    func reported() { reports.withLock { $0 += 1 } }
    /// How many errors the containers' `onResolutionError` hooks received.
    var reportCount: Int { reports.withLock { $0 } }

    func disposed(_ serial: Int) { state.withLock { $0.disposed.append(serial) } }
    /// The serials of the boxes disposed so far, in order.
    var disposed: [Int] { state.withLock { $0.disposed } }
}

struct ModelFailure: Error {}

/// A resolve's expected or actual result.
indirect enum Outcome: Equatable, CustomStringConvertible {
    case instance(id: Int, dependencies: [Outcome])
    /// `key` is not registered; `from` is the service that needed it (`nil` at the top).
    case missing(key: Int, from: Int?)
    case cycle([Int])
    case failed(key: Int)
    /// `key` is `.liveOnly()` and its holder a test context: no factory ran.
    case liveOnly(key: Int)
    case requiresAsync(key: Int, from: Int?)
    /// `key`'s factory runs on the main actor; `from` resolved it synchronously elsewhere.
    case requiresIsolation(key: Int, from: Int?)
    /// The container that would hold or resolve `key` was shut down.
    case shutDown(key: Int)
    /// `key` is registered only with other arguments than given (none or an `Int`).
    case argumentMismatch(key: Int)
    /// `key` is `.scoped` and would be made in a root, which is no scope, that validates scopes
    /// (`Diagnostics.validatesScopes`: by default in a debug build, as these tests are).
    case scopedOutsideScope(key: Int)
    case none  // resolve -> T? gave nil, or a T? nothing registers

    var isInstance: Bool {
        if case .instance = self { return true }
        return false
    }

    /// The instance's id; -1 for any other outcome.
    var id: Int {
        if case .instance(let id, _) = self { return id }
        return -1
    }

    var description: String {
        switch self {
        case .instance(let id, let dependencies):
            dependencies.isEmpty ? "#\(id)" : "#\(id)(\(dependencies.map(\.description).joined(separator: ", ")))"
        case .missing(let key, let from): "not registered k\(key)\(from.map { " (needed by k\($0))" } ?? "")"
        case .cycle(let keys): "cycle \(keys.map { "k\($0)" }.joined(separator: " → "))"
        case .failed(let key): "factory of k\(key) failed"
        case .liveOnly(let key): "k\(key) is live only"
        case .requiresAsync(let key, let from):
            "k\(key) has an async factory\(from.map { " (needed by k\($0))" } ?? "")"
        case .requiresIsolation(let key, let from):
            "k\(key) needs the main actor\(from.map { " (needed by k\($0))" } ?? "")"
        case .shutDown(let key): "k\(key): shut down"
        case .argumentMismatch(let key): "k\(key) takes other arguments"
        case .scopedOutsideScope(let key): "k\(key) is scoped, made in a root"
        case .none: "nil"
        }
    }
}

final class World {
    let ledger = Ledger()
    var containers: [Container]
    var model: Model
    /// Model instance ids to the serials of the real instances they stand for.
    var serialOf: [Int: Int] = [:]
    var idOf: [Int: Int] = [:]
    var nextRegistration = 0
    /// The overrides made so far, in order: `restore(override: n)` restores the n-th.
    var overrides: [Override] = []
    /// The actor that `ResolveContext.otherActor` resolves on.
    let otherActor = OtherActor()

    init() {
        containers = []
        model = Model()
        add(Container.shared)
    }

    func key(_ index: Int) -> String { "k\(index)" }

    /// Adds `container`, its `onResolutionError` hook counting in the ledger.
    private func add(_ container: Container) {
        let ledger = self.ledger
        container.diagnostics.onResolutionError = { _ in ledger.reported() }
        containers.append(container)
    }

    func perform(_ operation: Operation) async -> String? {
        // A shrunk sequence may name a container whose creation was removed: the index wraps.
        switch operation.wrapped(containers: containers.count) {
        case .register(let c, let registration):
            register(registration, in: c)
        case .registerInstance(let c, let k, let forwards, let owned):
            let box = ledger.make(registration: -1, dependencies: [])
            switch (forwards, owned) {
            case (true, false): containers[c].register(Box.self, name: key(k), also: (any Boxed).self, instance: box)
            case (false, false): containers[c].register(Box.self, name: key(k), instance: box)
            case (true, true): containers[c].register(Box.self, name: key(k), also: (any Boxed).self, owning: box)
            case (false, true): containers[c].register(Box.self, name: key(k), owning: box)
            }
            let id = model.registerInstance(container: c, key: k, forwards: forwards, owned: owned)
            serialOf[id] = box.serial
            idOf[box.serial] = id
        case .resolve(let c, let k, let style, let context):
            return await resolve(k, in: c, style: style, context: context)
        case .deepGraph(let c, let registrations, let tasks, let seed):
            for registration in registrations { register(registration, in: c) }
            return await resolveCold(registrations.map(\.key), in: c, tasks: tasks, seed: seed)
        case .child(let c):
            add(c % 2 == 0 ? containers[c].createScope() : Container(parent: containers[c]))
            model.addChild(of: c)
        case .update(let registrations, let probe, let isAsync):
            let root = model.root
            var mismatch: String?
            let staged = model.stage(container: root)
            await withStaging(registrations, probe: probe, container: root, staged: staged) { body in
                if isAsync {
                    await Container.updateAsync { _ async in body() }
                } else {
                    await Container.update { _ in body() }
                }
            } mismatch: {
                mismatch = $0
            }
            if let mismatch { return mismatch }
        case .install(let c, let module, let registrations, let probe):
            let name = "M\(module)"
            guard !model.isInstalled(name, in: c) else {
                // Installed before: configured once, so nothing of this call may take effect.
                let names = try? await containers[c].install([ProbeModule(name: name) { _ in }])
                return names == [] ? nil : "install of an installed module configured it again: \(names ?? [])"
            }
            var mismatch: String?
            let staged = model.stage(container: c, module: name)
            let container = containers[c]
            // A key another module of this container registered is a duplicate: nothing applies.
            let duplicate = model.isDuplicate(registrations, by: name, in: c)
            let outcome = Locked<String?>(nil)
            await withStaging(registrations, probe: probe, container: c, staged: staged, applies: !duplicate) { body in
                do {
                    _ = try await container.install([ProbeModule(name: name) { _ in body() }])
                } catch let error as ModuleError {
                    outcome.withLock { $0 = "\(error.code)" }
                } catch {
                    outcome.withLock { $0 = "\(error)" }
                }
            } mismatch: {
                mismatch = $0
            }
            if let mismatch { return mismatch }
            let actual = outcome.withLock { $0 } ?? "installed"
            let expected = duplicate ? "duplicateRegistration" : "installed"
            if actual != expected { return "install: expected \(expected), got \(actual)" }
            if !duplicate { model.markInstalled(name, in: c) }
        case .reset:
            await Container.resetForTesting()
            add(Container.shared)
            model.addRoot()
            model.isBootstrapped = false
        case .bootstrap(let kind, let registrations, let fails):
            return await bootstrap(kind, registrations, fails: fails)
        case .installModules(let c, let specs):
            let ledger = self.ledger
            var modules: [any Module] = []
            var ids: [[Int]] = []
            for spec in specs {
                let registrations = spec.registrations.map { registration in
                    defer { nextRegistration += 1 }
                    return (nextRegistration, registration)
                }
                ids.append(registrations.map(\.0))
                modules.append(
                    ProbeModule(
                        name: "M\(spec.name)", dependencies: spec.dependencies.map { "M\($0)" }, fails: spec.fails,
                        requirements: spec.requirements.map { ServiceKey(Box.self, name: "k\($0)") },
                        replaces: spec.replaces.map { "M\($0)" }
                    ) { container in
                        for (id, registration) in registrations {
                            World.register(
                                registration, id: id, key: "k\(registration.key)", in: container, ledger: ledger)
                        }
                    })
            }
            let actual: String
            do {
                actual = "installed \(try await containers[c].install(modules))"
            } catch let error as ModuleError where error.code == .ordering {
                actual = "ordering: \(error.orderingError.map { "\($0.code)" } ?? "?")"
            } catch let error as ModuleError where error.code == .configurationFailed {
                actual = "\(error.module) failed"
            } catch let error as ModuleError {
                actual = "module: \(error.code)"
            } catch {
                actual = "\(error)"
            }
            let expected = model.install(specs, ids: ids, in: c)
            if actual != expected { return "install: expected \(expected), got \(actual)" }
        case .checkHealth(let c):
            let report = await containers[c].checkHealth()
            let actual = Dictionary(
                uniqueKeysWithValues: report.statuses.map { key, status in (Self.index(key), "\(status)") })
            let expected = model.held(from: c)
            guard Set(actual.keys) == Set(expected.keys) else {
                return "checkHealth checked \(actual.keys.sorted()), the model holds \(expected.keys.sorted())"
            }
            for (key, id) in expected {
                guard let serial = serialOf[id] ?? actual[key].flatMap(Box.serial(fromStatus:)) else { continue }
                if let problem = compare(.instance(id: id, dependencies: []), .instance(id: serial, dependencies: [])) {
                    return "checkHealth of k\(key): \(problem)"
                }
                if actual[key] != "\(Box.status(of: serial))" {
                    return "checkHealth of k\(key): \(actual[key] ?? "none"), expected \(Box.status(of: serial))"
                }
            }
        case .ensureBootstrapped:
            let threw = (try? Container.ensureBootstrapped()) == nil
            if threw == model.isBootstrapped {
                return "ensureBootstrapped \(threw ? "threw" : "did not throw"), bootstrapped: \(model.isBootstrapped)"
            }
        case .resetLifetime(let c, let lifetime):
            containers[c].reset(lifetime: lifetime)
            model.reset(below: c) { _, cachedLifetime in cachedLifetime == lifetime }
        case .resetKey(let c, let k):
            containers[c].reset(Box.self, name: key(k))
            model.reset(below: c) { key, _ in
                [k, Model.withArgument(k), Model.withArguments(k), Model.withThreeArguments(k)].contains(key)
            }
        case .unregister(let c, let k):
            containers[c].unregister(Box.self, name: key(k))
            model.unregister(k, in: c)
            model.unregister(Model.withArgument(k), in: c)
            model.unregister(Model.withArguments(k), in: c)
            model.unregister(Model.withThreeArguments(k), in: c)
        case .removeAll(let c):
            containers[c].removeAll()
            model.removeAll(in: c)
        case .override(let c, let k, let lifetime):
            let id = nextRegistration
            nextRegistration += 1
            let ledger = self.ledger
            overrides.append(
                containers[c].override(Box.self, name: key(k), lifetime: lifetime) {
                    ledger.ran(id)
                    return ledger.make(registration: id, dependencies: [])
                })
            model.override(k, in: c, id: id, lifetime: lifetime)
        case .restore(let index):
            // A shrunk sequence may name an override whose making was removed: nothing to do.
            guard index < overrides.count else { break }
            overrides[index].restore()
            model.restore(override: index)
        case .registrations(let c):
            let actual = containers[c].registrations.map {
                "k\(Self.index($0.key)) \($0.lifetime)\($0.hasCachedInstance ? " cached" : "")"
            }
            let expected = model.registrations(in: c).map { "k\($0.key) \($0.lifetime)\($0.isCached ? " cached" : "")" }
            if actual != expected { return "registrations: expected \(expected), got \(actual)" }
        case .setDefaultLifetime(let c, let lifetime):
            containers[c].defaultLifetime = lifetime
            model.nodes[c].defaultLifetime = lifetime
        case .setValidatesScopes(let c, let on):
            containers[c].diagnostics.validatesScopes = on
            model.nodes[c].validatesScopes = on
        case .declareStartup(let c, let firstScreen, let afterReady):
            func key(_ index: Int) -> ServiceKey { ServiceKey(Box.self, name: "k\(index)") }
            containers[c].startup = StartupDeclaration(
                firstScreen: firstScreen.map(key), afterReady: afterReady.map(key))
            model.nodes[c].startup = (firstScreen, afterReady)
        case .shutdown(let c):
            let before = ledger.disposed.count
            try? await containers[c].shutdown()
            let disposed = ledger.disposed.dropFirst(before)
            let expected = model.shutdown(c)
            guard disposed.count == expected.count else {
                return "shutdown disposed \(Array(disposed)), the model says model values \(expected)"
            }
            for (id, serial) in zip(expected, disposed) {
                if let problem = compare(.instance(id: id, dependencies: []), .instance(id: serial, dependencies: [])) {
                    return "shutdown disposed out of order: \(problem)"
                }
            }
        case .setContexts(let c, let contexts):
            containers[c].contexts = Set(contexts.map(Operation.context))
            model.setContexts(Set(contexts), in: c)
        case .validate(let c):
            let report = await containers[c].validate()
            var actual = Set(report.problems.map(Self.describe))
            // The rules make the verdict independent of the key order: each key validated in a
            // copy of its own, with nothing the others made, gives the same problems and edges.
            var alone = model
            let eachAlone = alone.validate(from: c, eachKeyAlone: true)
            let expected = model.validate(from: c)
            var expectedProblems = expected.problems
            let plan = model.startupPlan(of: c, edges: expected.edges)
            if (plan == nil) != (report.startupPlan == nil) {
                return
                    "startup plan: expected \(plan == nil ? "none" : "one"), got \(report.startupPlan.map { "\($0)" } ?? "none")"
            }
            if let plan, let actualPlan = report.startupPlan {
                expectedProblems.formUnion(plan.hazards)
                // A cycle the plan reports may be another of the graph's cycles than the one a resolve met.
                let cycles = Set(actualPlan.hazards.map(Self.describe).filter { $0.hasPrefix("cycle") })
                actual.subtract(cycles)
                expectedProblems.subtract(cycles)
                let services = Set(
                    actualPlan.services.map { service in
                        "k\(Self.index(service.key)) \(service.timing == .beforeReady ? "before" : "after") after "
                            + "\(service.after.map(Self.index).sorted())"
                    })
                if !plan.hasCycle, services != plan.services {
                    return "startup plan: expected \(plan.services.sorted()), got \(services.sorted())"
                }
                let onDemand = Set(actualPlan.onDemand.map { "k\(Self.index($0))" })
                if !plan.hasCycle, onDemand != plan.onDemand {
                    return "startup plan on demand: expected \(plan.onDemand.sorted()), got \(onDemand.sorted())"
                }
            }
            if actual != expectedProblems {
                return "validate: expected \(expectedProblems.sorted()), got \(actual.sorted())"
            }
            let warnings = Set(report.warnings.map { "twice k\(Self.index($0.service))" })
            if warnings != model.registeredTwice(in: c) {
                return "validate warnings: expected \(model.registeredTwice(in: c).sorted()), got \(warnings.sorted())"
            }
            if eachAlone.problems != expected.problems || eachAlone.edges != expected.edges {
                return "validate depends on the key order: each key alone gives \(eachAlone.problems.sorted()), "
                    + "in one copy \(expected.problems.sorted())"
            }
            // The graph: every registration the container sees, and every dependency resolved.
            let nodes = Set(
                report.graph.nodes.map {
                    "k\(Self.index($0.key)) \($0.lifetime)" + ($0.module.map { " by \($0)" } ?? "")
                })
            let edges = Set(report.graph.edges.map { "k\(Self.index($0.from)) → k\(Self.index($0.to))" })
            if nodes != expected.nodes || edges != expected.edges {
                return "graph: expected \(expected.nodes.sorted()) \(expected.edges.sorted()), "
                    + "got \(nodes.sorted()) \(edges.sorted())"
            }
        }
        return checkRuns()
    }

    /// A registration to make inside a closure: its factory's id, or an `instance:`
    /// registration's value, which exists before the closure runs (id -1).
    typealias Spec = (id: Int, registration: Operation.Registration, instance: Box?)

    /// Ids for `registrations`' factories and values for their `instance:` ones.
    private func specs(for registrations: some Collection<Operation.Registration>) -> [Spec] {
        registrations.map { registration in
            if registration.isInstance {
                return (-1, registration, ledger.make(registration: -1, dependencies: []))
            }
            defer { nextRegistration += 1 }
            return (nextRegistration, registration, nil)
        }
    }

    /// Makes `specs`' registrations in `container`.
    static func register(_ specs: ArraySlice<Spec>, in container: Container, ledger: Ledger) {
        for (id, registration, instance) in specs {
            if let instance {
                container.register(Box.self, name: "k\(registration.key)", instance: instance)
            } else {
                register(registration, id: id, key: "k\(registration.key)", in: container, ledger: ledger)
            }
        }
    }

    /// Applies `specs` in the model through `staging`, binding each `instance:` value's id.
    private func apply(_ specs: [Spec], to staging: Model.Staging) {
        for (id, registration, _) in specs { staging.add(registration, id: id) }
        for (modelID, spec) in zip(model.apply(staging), specs) {
            guard let modelID, let instance = spec.instance else { continue }
            serialOf[modelID] = instance.serial
            idOf[instance.serial] = modelID
        }
    }

    /// Runs a bootstrap of the shared container and mirrors it in the model: on success, a new
    /// root with `registrations`; on a throw, nothing changes.
    private func bootstrap(
        _ kind: Operation.BootstrapKind, _ registrations: [Operation.Registration], fails: Bool
    ) async -> String? {
        let ledger = self.ledger
        let frozen = specs(for: registrations)
        @Sendable func configure(_ container: Container, _ part: ArraySlice<Spec>) {
            World.register(part, in: container, ledger: ledger)
        }
        let throwing: @Sendable (Container) async throws -> Void = { container in
            configure(container, frozen[...])
            if fails { throw ModelFailure() }
        }
        let reported: Bool
        let expected: Bool
        switch kind {
        case .bootstrap:
            await Container.bootstrap { configure($0, frozen[...]) }
            (reported, expected) = (true, true)
        case .bootstrapMixed:
            let half = frozen.count / 2
            await Container.bootstrapMixed(
                sync: { configure($0, frozen[..<half]) }, async: { configure($0, frozen[half...]) })
            (reported, expected) = (true, true)
        case .bootstrapAsync:
            reported = await Container.bootstrapAsync(throwing)
            expected = !fails
        case .bootstrapIfNeeded:
            reported = await Container.bootstrapIfNeeded(throwing)
            expected = !fails && !model.isBootstrapped
        case .bootstrapInTask:
            reported = await Container.bootstrapInTask(throwing).value
            expected = !fails
        }
        guard reported == expected else { return "\(kind) returned \(reported), the model says \(expected)" }
        guard expected else { return nil }
        add(Container.shared)
        // A bootstrap hands the shared container's diagnostics to its replacement.
        let previous = model.root
        model.addRoot()
        model.nodes[model.root].validatesScopes = model.nodes[previous].validatesScopes
        model.nodes[model.root].startup = model.nodes[previous].startup
        model.isBootstrapped = true
        apply(frozen, to: model.stage(container: model.root))
        return nil
    }

    /// Runs `registrations` (and a resolve of `probe`) inside a staging closure made by
    /// `stage`, and mirrors them in the model: registrations apply when the closure returns.
    private func withStaging(
        _ registrations: [Operation.Registration], probe: Int?, container: Int, staged: Model.Staging,
        applies: Bool = true, stage: (@escaping @Sendable () -> Void) async -> Void, mismatch: (String) -> Void
    ) async {
        let target = containers[container]
        let ledger = self.ledger
        let frozen = specs(for: registrations[...])
        let probed = Locked<Result<Box, ResolutionError>?>(nil)
        let probeKey = probe.map(key)
        await stage {
            World.register(frozen[...], in: target, ledger: ledger)
            if let probeKey {
                probed.withLock {
                    $0 = Result { () throws(ResolutionError) in try target.require(Box.self, name: probeKey) }
                }
            }
        }
        // The probe ran before the registrations applied: the model resolves it likewise.
        if let probe {
            let expected = model.resolve(probe, from: container, synchronously: true)
            let actual = probed.withLock { $0 }.map(outcome) ?? .none
            if let problem = compare(expected, actual) { mismatch("resolve inside the staging closure: \(problem)") }
        }
        if applies { apply(frozen, to: staged) }
    }

    private func register(_ registration: Operation.Registration, in c: Int) {
        World.register(
            registration, id: nextRegistration, key: key(registration.key), in: containers[c], ledger: ledger)
        model.register(registration, id: nextRegistration, in: c)
        nextRegistration += 1
    }

    static func register(
        _ registration: Operation.Registration, id: Int, key: String, in container: Container, ledger: Ledger
    ) {
        let dependencies = registration.dependencies
        let fails = registration.fails
        let yields = registration.yields
        let context = registration.context.map(Operation.context)
        let lifetime = registration.usesDefaultLifetime ? nil : registration.lifetime
        // The factory's body, whatever form registers it: counts its run, resolves its
        // dependencies (synchronously, or with `await`), then fails or makes a box.
        let make: @Sendable (Resolver) throws -> Box = { resolver in
            ledger.ran(id)
            let boxes = try dependencies.map { dependency throws -> Box? in
                let name = "k\(dependency.key)"
                return dependency.isOptional
                    ? try resolver.resolve(Box?.self, name: name) : try resolver.resolve(Box.self, name: name)
            }
            if yields { sched_yield() }
            if fails { throw ModelFailure() }
            return ledger.make(registration: id, dependencies: boxes)
        }
        let makeAsync: @Sendable (Resolver) async throws -> Box = { resolver in
            ledger.ran(id)
            var boxes: [Box?] = []
            for dependency in dependencies {
                let name = "k\(dependency.key)"
                if dependency.isOptional {
                    boxes.append(try await resolver.resolve(Box?.self, name: name))
                } else {
                    boxes.append(try await resolver.resolve(Box.self, name: name))
                }
            }
            if fails { throw ModelFailure() }
            return ledger.make(registration: id, dependencies: boxes)
        }
        let plain: @Sendable () throws -> Box = {
            ledger.ran(id)
            if yields { sched_yield() }
            if fails { throw ModelFailure() }
            return ledger.make(registration: id, dependencies: [])
        }
        // The form without a resolver, for half the factories that need nothing.
        let withoutResolver = dependencies.isEmpty && id % 2 == 0
        let also: [Any.Type] = registration.forwards ? [(any Boxed).self] : []
        var registered: Registered<Box>
        switch (registration.takesArgument, registration.takesTwoArguments, registration.isAsync) {
        case (true, _, true) where registration.takesThreeArguments && registration.isMainActor:
            registered = container.register(Box.self, name: key, lifetime: lifetime, isolation: .shared) {
                (resolver: Resolver, _: Int, _: Int, _: Int) async throws -> Box in try await makeAsync(resolver)
            }
        case (true, _, true) where registration.takesThreeArguments:
            registered = container.register(Box.self, name: key, lifetime: lifetime) {
                (resolver: Resolver, _: Int, _: Int, _: Int) async throws -> Box in try await makeAsync(resolver)
            }
        case (true, _, false) where registration.takesThreeArguments && registration.isMainActor:
            registered = container.register(Box.self, name: key, lifetime: lifetime, isolation: .shared) {
                (resolver: Resolver, _: Int, _: Int, _: Int) throws -> Box in try make(resolver)
            }
        case (true, _, false) where registration.takesThreeArguments:
            registered = container.register(Box.self, name: key, lifetime: lifetime) {
                (resolver: Resolver, _: Int, _: Int, _: Int) throws -> Box in try make(resolver)
            }
        case (_, true, true) where registration.isMainActor:
            registered = container.register(Box.self, name: key, lifetime: lifetime, isolation: .shared) {
                (resolver: Resolver, _: Int, _: Int) async throws -> Box in try await makeAsync(resolver)
            }
        case (_, true, true):
            registered = container.register(Box.self, name: key, lifetime: lifetime) {
                (resolver: Resolver, _: Int, _: Int) async throws -> Box in try await makeAsync(resolver)
            }
        case (_, true, false) where registration.isMainActor:
            registered = container.register(Box.self, name: key, lifetime: lifetime, isolation: .shared) {
                (resolver: Resolver, _: Int, _: Int) throws -> Box in try make(resolver)
            }
        case (_, true, false):
            registered = container.register(Box.self, name: key, lifetime: lifetime) {
                (resolver: Resolver, _: Int, _: Int) throws -> Box in try make(resolver)
            }
        case (true, false, true) where registration.isMainActor:
            registered = container.register(Box.self, name: key, lifetime: lifetime, isolation: .shared) {
                (resolver: Resolver, _: Int) async throws -> Box in try await makeAsync(resolver)
            }
        case (true, false, true):
            registered = container.register(Box.self, name: key, lifetime: lifetime) {
                (resolver: Resolver, _: Int) async throws -> Box in try await makeAsync(resolver)
            }
        case (true, false, false) where registration.isMainActor:
            registered = container.register(Box.self, name: key, lifetime: lifetime, isolation: .shared) {
                (resolver: Resolver, _: Int) throws -> Box in try make(resolver)
            }
        case (true, false, false):
            registered = container.register(Box.self, name: key, lifetime: lifetime) {
                (resolver: Resolver, _: Int) throws -> Box in try make(resolver)
            }
        case (false, false, true) where registration.isMainActor:
            registered = register(
                container, key, lifetime, also: also, when: context, isolation: .shared, factory: makeAsync)
        case (false, false, true):
            registered = register(container, key, lifetime, also: also, when: context, factory: makeAsync)
        case (false, false, false) where registration.isMainActor && withoutResolver:
            registered = register(
                container, key, lifetime, also: also, when: context, isolation: .shared, factory: plain)
        case (false, false, false) where registration.isMainActor:
            registered = register(
                container, key, lifetime, also: also, when: context, isolation: .shared, factory: make)
        case (false, false, false) where withoutResolver:
            registered = register(container, key, lifetime, also: also, when: context, factory: plain)
        case (false, false, false):
            registered = register(container, key, lifetime, also: also, when: context, factory: make)
        }
        switch registration.double {
        case .testValue?: registered = registered.testValue { ledger.make(registration: id, dependencies: []) }
        case .liveOnly?: registered = registered.liveOnly()
        case nil: break
        }
        if registration.isDecorated {
            registered = registered.decorated { box in ledger.make(registration: id, dependencies: [box]) }
        }
        if registration.hasHook {
            registered = registered.onCreated { _, _ in ledger.ran(Model.hook(of: id)) }
        }
    }

    // `register` with `also:` as an array: the variadic parameter takes none or one type here.
    private static func register(
        _ container: Container, _ key: String, _ lifetime: Lifetime?, also: [Any.Type],
        when context: Container.Context?,
        factory: @escaping @Sendable () throws -> Box
    ) -> Registered<Box> {
        guard let forwarded = also.first else {
            return container.register(Box.self, name: key, lifetime: lifetime, when: context, factory: factory)
        }
        return container.register(
            Box.self, name: key, lifetime: lifetime, also: forwarded, when: context, factory: factory)
    }

    private static func register(
        _ container: Container, _ key: String, _ lifetime: Lifetime?, also: [Any.Type],
        when context: Container.Context?,
        factory: @escaping @Sendable (Resolver) throws -> Box
    ) -> Registered<Box> {
        guard let forwarded = also.first else {
            return container.register(Box.self, name: key, lifetime: lifetime, when: context, factory: factory)
        }
        return container.register(
            Box.self, name: key, lifetime: lifetime, also: forwarded, when: context, factory: factory)
    }

    private static func register(
        _ container: Container, _ key: String, _ lifetime: Lifetime?, also: [Any.Type],
        when context: Container.Context?,
        factory: @escaping @Sendable (Resolver) async throws -> Box
    ) -> Registered<Box> {
        guard let forwarded = also.first else {
            return container.register(Box.self, name: key, lifetime: lifetime, when: context, factory: factory)
        }
        return container.register(
            Box.self, name: key, lifetime: lifetime, also: forwarded, when: context, factory: factory)
    }

    private static func register(
        _ container: Container, _ key: String, _ lifetime: Lifetime?, also: [Any.Type],
        when context: Container.Context?,
        isolation: MainActor, factory: @escaping @MainActor @Sendable () throws -> Box
    ) -> Registered<Box> {
        guard let forwarded = also.first else {
            return container.register(
                Box.self, name: key, lifetime: lifetime, when: context, isolation: isolation, factory: factory)
        }
        return container.register(
            Box.self, name: key, lifetime: lifetime, also: forwarded, when: context, isolation: isolation,
            factory: factory)
    }

    private static func register(
        _ container: Container, _ key: String, _ lifetime: Lifetime?, also: [Any.Type],
        when context: Container.Context?,
        isolation: MainActor, factory: @escaping @MainActor @Sendable (Resolver) throws -> Box
    ) -> Registered<Box> {
        guard let forwarded = also.first else {
            return container.register(
                Box.self, name: key, lifetime: lifetime, when: context, isolation: isolation, factory: factory)
        }
        return container.register(
            Box.self, name: key, lifetime: lifetime, also: forwarded, when: context, isolation: isolation,
            factory: factory)
    }

    private static func register(
        _ container: Container, _ key: String, _ lifetime: Lifetime?, also: [Any.Type],
        when context: Container.Context?,
        isolation: MainActor, factory: @escaping @MainActor @Sendable (Resolver) async throws -> Box
    ) -> Registered<Box> {
        guard let forwarded = also.first else {
            return container.register(
                Box.self, name: key, lifetime: lifetime, when: context, isolation: isolation, factory: factory)
        }
        return container.register(
            Box.self, name: key, lifetime: lifetime, also: forwarded, when: context, isolation: isolation,
            factory: factory)
    }

    /// What a resolve observed, before it is compared with the model.
    enum Observation: Sendable {
        case result(Result<Box?, ResolutionError>)
        /// A wrapper's second read disagreed with its first.
        case notKept(String)
    }

    /// The resolves of the synchronous `style`s, made wherever this is called.
    static func observeSynchronously(
        _ style: Operation.ResolveStyle, _ name: String, in container: Container, ledger: Ledger
    ) -> Observation {
        /// A wrapper's second read must give what its first did, without resolving again.
        func kept(_ first: Box?, _ second: Box?) -> Observation {
            guard first === second else {
                return .notKept(
                    "a second read of the wrapper gave \(second.map { "#\($0.serial)" } ?? "nil"), not its first value")
            }
            return .result(.success(first))
        }
        switch style {
        case .injected:
            let injected = Injected<Box>(name, container: container)
            return kept(injected.wrappedValue, injected.wrappedValue)
        case .weakInjected:
            let injected = WeakInjected<Box>(name, container: container)
            return kept(injected.wrappedValue, injected.wrappedValue)
        case .injectedResolve:
            let injected = Injected<Box>(name, container: container)
            return .result(Result { () throws(ResolutionError) in try injected.resolve() })
        case .factoryWrapper:
            let fallback = Box(serial: -1, dependencies: [], ledger: ledger)
            let made = Factory<Box>(wrappedValue: fallback, name, container: container).wrappedValue
            return .result(.success(made === fallback ? nil : made))
        case .probe:
            return .result(.success(container.resolve(Box.self, name: name)))
        case .optional:
            return .result(Result { () throws(ResolutionError) in try container.require(Box?.self, name: name) })
        case .forwarded:
            return .result(
                Result { () throws(ResolutionError) in try container.require((any Boxed).self, name: name) as? Box })
        case .argument:
            return .result(
                Result { () throws(ResolutionError) in try container.require(Box.self, name: name, argument: 7) })
        case .argumentProbe:
            return .result(.success(container.resolve(Box.self, name: name, argument: 7)))
        case .arguments:
            return .result(
                Result { () throws(ResolutionError) in try container.require(Box.self, name: name, arguments: 7, 8) })
        case .threeArguments:
            return .result(
                Result { () throws(ResolutionError) in try container.require(Box.self, name: name, arguments: 7, 8, 9) }
            )
        default:
            return .result(Result { () throws(ResolutionError) in try container.require(Box.self, name: name) })
        }
    }

    /// The resolves of the `async` `style`s.
    static func observeAsynchronously(_ style: Operation.ResolveStyle, _ name: String, in container: Container) async
        -> Observation
    {
        do throws(ResolutionError) {
            switch style {
            case .optionalAsync: return .result(.success(try await container.resolveAsync(Box?.self, name: name)))
            case .forwardedAsync:
                return .result(.success(try await container.resolveAsync((any Boxed).self, name: name) as? Box))
            case .argumentAsync:
                return .result(.success(try await container.resolveAsync(Box.self, name: name, argument: 7)))
            case .argumentsAsync:
                return .result(.success(try await container.resolveAsync(Box.self, name: name, arguments: 7, 8)))
            case .threeArgumentsAsync:
                return .result(.success(try await container.resolveAsync(Box.self, name: name, arguments: 7, 8, 9)))
            default: return .result(.success(try await container.resolveAsync(Box.self, name: name)))
            }
        } catch {
            return .result(.failure(error))
        }
    }

    /// `style`'s resolve of `name`, made from `context`.
    private func observe(
        _ style: Operation.ResolveStyle, _ name: String, in container: Container, from context: Operation.ResolveContext
    ) async -> Observation {
        let ledger = self.ledger
        switch (style.isSynchronous, context) {
        case (true, .background):
            return Self.observeSynchronously(style, name, in: container, ledger: ledger)
        case (true, .mainActor):
            return await MainActor.run { Self.observeSynchronously(style, name, in: container, ledger: ledger) }
        case (true, .otherActor):
            return await otherActor.run { Self.observeSynchronously(style, name, in: container, ledger: ledger) }
        case (false, .background):
            return await Self.observeAsynchronously(style, name, in: container)
        case (false, .mainActor):
            return await Task { @MainActor in await Self.observeAsynchronously(style, name, in: container) }.value
        case (false, .otherActor):
            return await otherActor.runAsync { await Self.observeAsynchronously(style, name, in: container) }
        }
    }

    /// Resolves `k` from 6 tasks at once, half of them through `T?`, where the model makes one
    /// cached value (a singleton, scoped or weak service whose resolution succeeds): every task
    /// must get that value, and every factory must run as often as for one resolve. Elsewhere
    /// the tasks' factories would run a number of times no rule fixes: one `async` resolve then.
    private func contended(_ k: Int, in c: Int) async -> String? {
        var trial = model
        let expected = trial.resolve(k, from: c, synchronously: false)
        let lifetime = model.lifetime(of: k, in: c)
        guard lifetime == .singleton || lifetime == .scoped || lifetime == .weak, case .instance = expected else {
            return await resolve(k, in: c, style: .async, context: .background)
        }
        model = trial
        let container = containers[c]
        let name = key(k)
        let results = await withTaskGroup(of: (Int, Result<Box?, ResolutionError>).self) { group in
            for task in 0..<6 {
                group.addTask {
                    do throws(ResolutionError) {
                        let box: Box? =
                            task % 2 == 0
                            ? try await container.resolveAsync(Box.self, name: name)
                            : try await container.resolveAsync(Box?.self, name: name)
                        return (task, .success(box))
                    } catch {
                        return (task, .failure(error))
                    }
                }
            }
            return await group.reduce(into: [Int: Result<Box?, ResolutionError>]()) { $0[$1.0] = $1.1 }
        }
        for task in 0..<6 {
            let actual = results[task].map(outcome) ?? .none
            if let problem = compare(expected, actual) { return "contended resolve, task \(task): \(problem)" }
        }
        return checkRuns()
    }

    /// Resolves every one of `keys` from `tasks` tasks at once, each in an order of its own,
    /// the even ones with `require` and the odd ones with `resolveAsync`, where the model makes
    /// an instance of every key: every task must get the model's instances, every factory run
    /// as often as for one resolve of each. Elsewhere (a failure, a missing or `async`
    /// dependency), one `async` resolve of each key in turn.
    private func resolveCold(_ keys: [Int], in c: Int, tasks: Int, seed: UInt64) async -> String? {
        var trial = model
        var expected: [Int: Outcome] = [:]
        for k in keys { expected[k] = trial.resolve(k, from: c, synchronously: false) }
        // A synchronous resolve must make every one too: then the order the tasks go in cannot
        // matter (an `async` value served to a synchronous resolve would depend on it).
        var synchronous = model
        let allSynchronous = keys.allSatisfy { k in
            synchronous.resolve(k, from: c, synchronously: true, onMainActor: false).isInstance
        }
        // A `.graph` value is shared within one outermost resolve, so which singletons share
        // one depends on the order: then too, one resolve at a time.
        let hasGraphValues = (0..<Operation.keyCount).contains { model.lifetime(of: $0, in: c) == .graph }
        guard allSynchronous, !hasGraphValues, expected.values.allSatisfy(\.isInstance) else {
            for k in keys {
                if let problem = await resolve(k, in: c, style: .async, context: .background) { return problem }
            }
            return nil
        }
        let before = containers.map(madeToDispose)
        model = trial
        let container = containers[c]
        let names = keys.map(key)
        let results = await withTaskGroup(of: (Int, [Int: Result<Box, ResolutionError>]).self) { group in
            for task in 0..<tasks {
                var generator = SplitMix64(seed: seed &+ UInt64(task))
                let order = Array(names.indices).shuffled(using: &generator)
                group.addTask {
                    var results: [Int: Result<Box, ResolutionError>] = [:]
                    for index in order {
                        do throws(ResolutionError) {
                            let box =
                                task % 2 == 0
                                ? try container.require(Box.self, name: names[index])
                                : try await container.resolveAsync(Box.self, name: names[index])
                            results[index] = .success(box)
                        } catch {
                            results[index] = .failure(error)
                        }
                    }
                    return (task, results)
                }
            }
            return await group.reduce(into: [Int: [Int: Result<Box, ResolutionError>]]()) { $0[$1.0] = $1.1 }
        }
        for task in 0..<tasks {
            for (index, k) in keys.enumerated() {
                let actual = results[task]?[index].map(outcome) ?? .none
                if let problem = compare(expected[k] ?? .none, actual) {
                    return "cold resolve of k\(k), task \(task): \(problem)"
                }
            }
        }
        if let problem = adoptCreationOrder(after: before) { return problem }
        return checkRuns()
    }

    /// The boxes `container` made and will dispose, in the order it made them.
    private func madeToDispose(by container: Container) -> [Box] {
        container.state.withLock { $0.cache.disposables().compactMap { $0.value as? Box } }
    }

    /// The order in which concurrent resolves made values is theirs, not the model's: each
    /// container's values are disposed in reverse order of it, so the model takes it over,
    /// after checking the rule that order must keep. Values made before stay where they were,
    /// the new ones are the model's new ones, and each comes after the dependencies it holds
    /// that the same container made.
    private func adoptCreationOrder(after before: [[Box]]) -> String? {
        for (index, container) in containers.enumerated() where index < before.count {
            let boxes = madeToDispose(by: container)
            let kept = before[index].count
            let modelled = model.nodes[index].disposables
            let new = boxes.dropFirst(kept).map { idOf[$0.serial] ?? -$0.serial }
            guard boxes.prefix(kept).map(\.serial) == before[index].map(\.serial), kept + new.count == modelled.count,
                new.sorted() == modelled.dropFirst(kept).sorted()
            else {
                return "c\(index) made \(boxes.map(\.serial)) to dispose (#serial), the model \(modelled) (ids)"
            }
            let position = Dictionary(uniqueKeysWithValues: boxes.enumerated().map { ($1.serial, $0) })
            for (place, box) in boxes.enumerated() {
                for case let dependency? in box.dependencies {
                    if let at = position[dependency.serial], at > place {
                        return "c\(index) made #\(box.serial) before its dependency #\(dependency.serial)"
                    }
                }
            }
            model.nodes[index].disposables = Array(modelled.prefix(kept)) + new
        }
        return nil
    }

    /// `require(k)` on the main actor while 8 background tasks `resolveAsync(k)`, where `k` is
    /// a main-actor service with a cached lifetime and the model makes its value: every caller
    /// gets that one value, and every factory runs as often as for one resolve. Elsewhere, a
    /// synchronous resolve on the main actor.
    private func contendedWithMainActor(_ k: Int, in c: Int) async -> String? {
        var trial = model
        let expected = trial.resolve(k, from: c, synchronously: true, onMainActor: true)
        let registration = model.registration(of: k, seenFrom: c)?.registration
        guard let registration, registration.isMainActor, case .instance = expected,
            [.singleton, .scoped, .weak].contains(registration.lifetime)
        else {
            return await resolve(k, in: c, style: .require, context: .mainActor)
        }
        model = trial
        let container = containers[c]
        let name = key(k)
        let results = await withDeadlockGuard("the model's contention on k\(k)") {
            await Task { @MainActor in
                let background = (0..<8).map { _ in
                    Task.detached { () async -> Result<Box?, ResolutionError> in
                        do throws(ResolutionError) {
                            return .success(try await container.resolveAsync(Box.self, name: name))
                        } catch { return .failure(error) }
                    }
                }
                var results = [
                    Result { () throws(ResolutionError) -> Box? in try container.require(Box.self, name: name) }
                ]
                for task in background { results.append(await task.value) }
                return results
            }.value
        }
        for (index, result) in results.enumerated() {
            if let problem = compare(expected, outcome(result)) {
                return
                    "resolve on the main actor and 8 tasks, \(index == 0 ? "main actor" : "task \(index)"): \(problem)"
            }
        }
        return checkRuns()
    }

    private func resolve(
        _ k: Int, in c: Int, style: Operation.ResolveStyle, context: Operation.ResolveContext
    ) async -> String? {
        switch style {
        case .contended: return await contended(k, in: c)
        case .contendedWithMainActor: return await contendedWithMainActor(k, in: c)
        default: break
        }
        let reportsBefore = ledger.reportCount
        let actual: Outcome
        switch await observe(style, key(k), in: containers[c], from: context) {
        case .notKept(let problem): return problem
        case .result(let result): actual = outcome(result)
        }
        // A synchronous resolve runs its factories where it is made; `resolveAsync` runs them
        // off the main actor, wherever it is called from.
        let onMainActor = style.isSynchronous && context == .mainActor
        var expected =
            switch style {
            case .require, .probe, .injected, .weakInjected, .injectedResolve, .factoryWrapper:
                model.resolve(k, from: c, synchronously: true, onMainActor: onMainActor)
            case .async: model.resolve(k, from: c, synchronously: false)
            case .optional: model.resolveOptional(k, from: c, synchronously: true, onMainActor: onMainActor)
            case .optionalAsync: model.resolveOptional(k, from: c, synchronously: false)
            case .forwarded:
                model.resolve(Model.forwarding(k), from: c, synchronously: true, onMainActor: onMainActor)
            case .forwardedAsync: model.resolve(Model.forwarding(k), from: c, synchronously: false)
            case .argument, .argumentProbe:
                model.resolve(Model.withArgument(k), from: c, synchronously: true, onMainActor: onMainActor)
            case .argumentAsync: model.resolve(Model.withArgument(k), from: c, synchronously: false)
            case .arguments:
                model.resolve(Model.withArguments(k), from: c, synchronously: true, onMainActor: onMainActor)
            case .argumentsAsync: model.resolve(Model.withArguments(k), from: c, synchronously: false)
            case .threeArguments:
                model.resolve(Model.withThreeArguments(k), from: c, synchronously: true, onMainActor: onMainActor)
            case .threeArgumentsAsync: model.resolve(Model.withThreeArguments(k), from: c, synchronously: false)
            case .contended, .contendedWithMainActor: Outcome.none  // handled above
            }
        // Every error of an outermost resolve reaches `onResolutionError` once, except a probe's
        // "not registered" for the key it asked about (checked for the resolve methods).
        let counted: [Operation.ResolveStyle] = [
            .require, .probe, .async, .optional, .optionalAsync, .forwarded, .forwardedAsync, .argument,
            .argumentAsync, .argumentProbe, .arguments, .argumentsAsync, .threeArguments, .threeArgumentsAsync,
        ]
        if counted.contains(style) {
            // A probe of a key nothing registers (without arguments: whatever is registered with them).
            let isProbeMiss: Bool
            switch (style, expected) {
            case (.probe, _):
                isProbeMiss = !model.nodes[c].isShutDown && model.registration(of: k, seenFrom: c) == nil
            case (.argumentProbe, .missing(_, nil)): isProbeMiss = true
            default: isProbeMiss = false
            }
            let expectedReports = expected.isInstance || expected == .none || isProbeMiss ? 0 : 1
            let reports = ledger.reportCount - reportsBefore
            if reports != expectedReports {
                return
                    "onResolutionError was called \(reports) times for \(expected), the model says \(expectedReports)"
            }
        }
        // A wrapper that read `nil` resolves again on its second read.
        if style == .injected || style == .weakInjected, !expected.isInstance {
            _ = model.resolve(k, from: c, synchronously: true, onMainActor: onMainActor)
        }
        // These read `nil` (or the fallback) where a resolve would fail.
        let probes: [Operation.ResolveStyle] = [.probe, .argumentProbe, .injected, .weakInjected, .factoryWrapper]
        if probes.contains(style), case .instance = expected {
        } else if probes.contains(style) {
            expected = .none
        }
        return compare(expected, actual).map { "resolve: \($0)" } ?? checkRuns()
    }

    private func outcome(_ result: Result<Box?, ResolutionError>) -> Outcome {
        switch result {
        case .success(let box):
            guard let box else { return .none }
            return .instance(id: box.serial, dependencies: box.dependencies.map { outcome(.success($0)) })
        case .failure(let error):
            switch error.code {
            case .notRegistered: return .missing(key: Self.index(error.key), from: error.path.last.map(Self.index))
            case .circularDependency: return .cycle(error.cycle.map(Self.index))
            case .factoryFailed: return .failed(key: Self.index(error.key))
            case .liveOnly: return .liveOnly(key: Self.index(error.key))
            case .requiresAsync:
                return .requiresAsync(key: Self.index(error.key), from: error.path.last.map(Self.index))
            case .requiresIsolation:
                return .requiresIsolation(key: Self.index(error.key), from: error.path.last.map(Self.index))
            case .shutDown: return .shutDown(key: Self.index(error.key))
            case .argumentMismatch: return .argumentMismatch(key: Self.index(error.key))
            case .scopedOutsideScope: return .scopedOutsideScope(key: Self.index(error.key))
            default: return .failed(key: -1)
            }
        }
    }

    private func outcome(_ result: Result<Box, ResolutionError>) -> Outcome {
        outcome(result.map { $0 as Box? })
    }

    /// A validation problem in the model's words.
    static func describe(_ problem: ValidationProblem) -> String {
        let service = "k\(index(problem.service))"
        let dependency = problem.dependency.map { "k\(index($0))" } ?? "?"
        switch problem.code {
        case .missingDependency: return "missing \(service) → \(dependency)"
        case .circularDependency: return "cycle \(problem.cycle.map { "k\(index($0))" }.joined(separator: " → "))"
        case .captiveDependency: return "captive \(service) → \(dependency) \(problem.lifetime.map { "\($0)" } ?? "?")"
        case .requiresAsync: return "async \(service) → \(dependency)"
        case .requiresIsolation: return "isolation \(service) → \(dependency)"
        case .factoryFailed: return "failed \(service)"
        case .unmetRequirement: return "unmet \(problem.module ?? "?") → \(service)"
        // The dependent that reached it first depends on the order of a walk: not compared.
        case .neededBeforeReady: return "ready \(dependency)"
        case .startupServiceNotRegistered: return "unregistered \(service)"
        default: return "\(problem)"
        }
    }

    /// The model's key for `key`: `N` for `Box` named `kN`, ``Model/forwarding(_:)`` of `N` for
    /// `any Boxed` named `kN`.
    static func index(_ key: ServiceKey) -> Int {
        let number = key.name.flatMap { Int($0.dropFirst()) } ?? -1
        if ObjectIdentifier(key.type) == ObjectIdentifier((any Boxed).self) { return Model.forwarding(number) }
        guard let arguments = key.argumentsType else { return number }
        switch ObjectIdentifier(arguments) {
        case ObjectIdentifier((Int, Int, Int).self): return Model.withThreeArguments(number)
        case ObjectIdentifier((Int, Int).self): return Model.withArguments(number)
        default: return Model.withArgument(number)
        }
    }

    /// Compares a model outcome (instance ids) with an actual one (serials), binding new ids.
    private func compare(_ expected: Outcome, _ actual: Outcome) -> String? {
        switch (expected, actual) {
        case (.instance(let id, let expectedDependencies), .instance(let serial, let actualDependencies)):
            if let bound = serialOf[id] {
                if bound != serial { return "expected the instance #\(bound) again, got #\(serial)" }
            } else {
                if let other = idOf[serial] { return "expected a new instance, got #\(serial) again (model #\(other))" }
                serialOf[id] = serial
                idOf[serial] = id
            }
            guard expectedDependencies.count == actualDependencies.count else {
                return "dependencies differ: expected \(expectedDependencies), got \(actualDependencies)"
            }
            for (e, a) in zip(expectedDependencies, actualDependencies) {
                if let problem = compare(e, a) { return problem }
            }
            return nil
        default:
            return expected == actual ? nil : "expected \(expected), got \(actual)"
        }
    }

    private func checkRuns() -> String? {
        let actual = ledger.runs
        for (registration, runs) in model.runs where actual[registration, default: 0] != runs {
            let what = registration >= Model.hook(of: 0) ? "onCreated hook" : "factory"
            return
                "\(what) of registration \(registration % Model.hook(of: 0)) ran \(actual[registration, default: 0]) times, the model says \(runs)"
        }
        return nil
    }
}

struct ProbeModule: Module {
    let name: String
    var dependencies: [String] = []
    var fails = false
    var requirements: [ServiceKey] = []
    var replaces: [String] = []
    let body: @Sendable (Container) -> Void
    func configure(_ container: Container) async throws {
        body(container)
        if fails { throw ModelFailure() }
    }
}

// MARK: - The reference model

/// Weft's rules, written as plainly as possible from its documentation (ResolutionRules.md,
/// ``Override``, ``Container/contexts``, ``Container/update(_:)``): no caches but the ones the
/// rules name.
struct Model {
    struct Registration {
        /// Which registration this is: two registrations are the same one only if equal here.
        let uid: Int
        /// The factory's id in the ledger (-1 for an `instance:` registration).
        let id: Int
        let lifetime: Lifetime
        let dependencies: [Operation.Dependency]
        let fails: Bool
        let isAsync: Bool
        /// For an `instance:` registration, its value's id.
        let instance: Int?
        var isDecorated = false
        var hasHook = false
        /// For a key registered `also:`, the key it forwards to.
        var forward: Int?
        /// A synchronous factory that runs on the main actor.
        var isMainActor = false
        /// An `async` factory registered with `isolation:`: it hops to the main actor by itself
        /// and follows the rules of any `async` factory, but `validate()` knows where it runs.
        var isMainActorAsync = false
        /// What it does where the container holding it is a test context.
        var double: Operation.TestDouble?
    }

    /// The key that `also: (any Boxed).self` registers for `key`.
    static func forwarding(_ key: Int) -> Int { 100 + key }

    /// The key of registrations of `key` whose factory takes an `Int`.
    static func withArgument(_ key: Int) -> Int { 200 + key }

    /// The key of registrations of `key` whose factory takes two `Int`s.
    static func withArguments(_ key: Int) -> Int { 300 + key }

    /// The key of registrations of `key` whose factory takes three `Int`s.
    static func withThreeArguments(_ key: Int) -> Int { 400 + key }

    /// The keys of the same service and name with other arguments (or none) than `key`'s.
    static func siblings(_ key: Int) -> [Int] {
        guard key < 100 || key >= 200 else { return [] }
        let base = key % 100
        return [base, withArgument(base), withArguments(base), withThreeArguments(base)].filter { $0 != key }
    }

    /// Every key the model knows, in the order `registrations` and `validate()` sort them.
    static let keys =
        ((0..<Operation.keyCount).flatMap {
            [$0, withArgument($0), withArguments($0), withThreeArguments($0), forwarding($0)]
        } + Array(Operation.graphKeys..<(Operation.graphKeys + Operation.graphKeyCount))).sorted {
            sortName($0) < sortName($1)
        }

    /// The description of `key`'s `ServiceKey`, by which `registrations` sorts.
    private static func sortName(_ key: Int) -> String {
        let name = "\"k\(key % 100)\""
        return switch key / 100 {
        case 0: "\(name) Box"
        case 1: "\(name) any Boxed"
        case 2: "\(name) Box(Int)"
        case 3: "\(name) Box(Int, Int)"
        default: "\(name) Box(Int, Int, Int)"
        }
    }

    /// The id under which the ledger counts the runs of registration `id`'s `onCreated` hook.
    static func hook(of id: Int) -> Int { 1_000_000 + id }

    /// Every registration a container holds for a key, in layers. The effective one is the last
    /// override in force, else the last registration for an active context, else the one
    /// registered without a context.
    struct Layers {
        var base: Registration?
        var contextual: [(context: Int, registration: Registration)] = []
        var overrides: [Registration] = []

        func effective(in contexts: Set<Int>) -> Registration? {
            overrides.last ?? contextual.last { contexts.contains($0.context) }?.registration ?? base
        }

        var isEmpty: Bool { base == nil && contextual.isEmpty && overrides.isEmpty }
    }

    struct Node {
        let parent: Int?
        var layers: [Int: Layers] = [:]
        /// The active contexts; a root starts with `test` (2), as every container of a test
        /// does (`Container.Context.defaults`), a child with its parent's.
        var contexts: Set<Int> = [2]
        var cache: [Int: Outcome] = [:]
        var modules: Set<String> = []
        /// The modules installed here, in order, with the keys they require.
        var requirements: [(module: String, keys: [Int])] = []
        /// Which module registered each key here (a registration outside modules forgets it).
        var provenance: [Int: String] = [:]
        /// Keys whose registration without a context was made again here from the same place
        /// (outside modules, or the same module), replacing this container's own: the uid of the
        /// later one. `validate()` warns of each while that registration is the one in force.
        var twice: [Int: Int] = [:]
        /// The singleton and scoped values this container made and cached, in order.
        var disposables: [Int] = []
        var isShutDown = false
        /// The lifetime of registrations that name none; a child starts with its parent's.
        var defaultLifetime = Lifetime.transient
        /// Whether a `.scoped` value made here, a root, is an error; a child copies its parent's.
        var validatesScopes = Diagnostics.validatesScopesByDefault
        /// The start-up declared here (`Container.startup`): first-screen keys, keys marked
        /// after ready. A child starts without one.
        var startup: (firstScreen: [Int], afterReady: [Int])?

        /// The registration this container resolves `key` with, if it holds one.
        func registration(_ key: Int) -> Registration? { layers[key]?.effective(in: contexts) }
    }

    final class Staging {
        let container: Int
        /// The module whose configure stages, for `install`.
        let module: String?
        var registrations: [(Operation.Registration, Int)] = []
        init(container: Int, module: String? = nil) { (self.container, self.module) = (container, module) }
        func add(_ registration: Operation.Registration, id: Int) { registrations.append((registration, id)) }
    }

    struct Frame: Equatable {
        let key: Int
        let owner: Int
        let resolver: Int
        let lifetime: Lifetime
        /// A synchronous main-actor factory.
        var isMainActor = false
        /// Any main-actor factory, synchronous or `async`.
        var isIsolated = false
        var isAsync = false
    }

    /// A dependency a factory resolved, as `validate()` records it.
    struct Edge {
        let from: Frame
        let to: Frame
        /// Resolved synchronously (by a synchronous factory).
        let synchronously: Bool
    }

    var nodes = [Node(parent: nil)]
    var root = 0
    var runs: [Int: Int] = [:]
    var nextInstance = 0
    var nextUID = 0
    /// Each override made, in order: where it is and its registration's uid.
    var overrides: [(container: Int, key: Int, uid: Int)] = []
    /// While validating: the dependencies resolved so far.
    var edges: [Edge]?
    /// While validating a graph with main-actor registrations: synchronous factories run on the
    /// main actor.
    var validatesOnMainActor = false
    /// Whether a bootstrap of the shared container completed since it was last reset.
    var isBootstrapped = false

    mutating func addChild(of parent: Int) {
        nodes.append(
            Node(
                parent: parent, contexts: nodes[parent].contexts, defaultLifetime: nodes[parent].defaultLifetime,
                validatesScopes: nodes[parent].validatesScopes))
    }

    mutating func addRoot() {
        nodes.append(Node(parent: nil))
        root = nodes.count - 1
    }

    func isInstalled(_ module: String, in container: Int) -> Bool { nodes[container].modules.contains(module) }
    mutating func markInstalled(_ module: String, in container: Int) { nodes[container].modules.insert(module) }

    func stage(container: Int, module: String? = nil) -> Staging { Staging(container: container, module: module) }

    /// The keys a registration registers: its own (with its arguments), and its `also:` key.
    static func keys(of registration: Operation.Registration) -> [Int] {
        let key =
            registration.takesThreeArguments
            ? withThreeArguments(registration.key)
            : registration.takesTwoArguments
                ? withArguments(registration.key)
                : registration.takesArgument ? withArgument(registration.key) : registration.key
        return [key] + (registration.forwards ? [forwarding(registration.key)] : [])
    }

    /// Whether `module` registering `registrations` in `container` registers a key another
    /// module registered there (and still holds), without replacing it on purpose.
    func isDuplicate(
        _ registrations: [Operation.Registration], by module: String, replaces: [String] = [], in container: Int
    ) -> Bool {
        registrations.flatMap(Self.keys).contains { key in
            guard let owner = nodes[container].provenance[key] else { return false }
            return owner != module && !replaces.contains(owner)
        }
    }

    /// Staged registrations take effect in the order they were made, as if made one by one.
    /// Returns, for each, the id of its value if it is an `instance:` registration.
    mutating func apply(_ staging: Staging) -> [Int?] {
        staging.registrations.map { registration, id in
            if registration.isInstance {
                return registerInstance(container: staging.container, key: registration.key, module: staging.module)
            }
            register(registration, id: id, in: staging.container, module: staging.module)
            return nil
        }
    }

    private mutating func make(
        id: Int, lifetime: Lifetime, dependencies: [Operation.Dependency] = [], fails: Bool = false,
        isAsync: Bool = false, instance: Int? = nil
    ) -> Registration {
        nextUID += 1
        return Registration(
            uid: nextUID, id: id, lifetime: lifetime, dependencies: dependencies, fails: fails, isAsync: isAsync,
            instance: instance)
    }

    /// Registering without a context replaces the key's base registration and ends its
    /// overrides; for a context, it adds a registration beneath them. The keys it registers
    /// record `module`, or forget their module when registered outside modules.
    mutating func register(_ registration: Operation.Registration, id: Int, in container: Int, module: String? = nil) {
        let earlier = Self.keys(of: registration).map { nodes[container].provenance[$0] }
        for key in Self.keys(of: registration) { nodes[container].provenance[key] = module }
        let lifetime = registration.usesDefaultLifetime ? nodes[container].defaultLifetime : registration.lifetime
        var made = make(
            id: id, lifetime: lifetime, dependencies: registration.dependencies,
            fails: registration.fails, isAsync: registration.isAsync)
        made.isDecorated = registration.isDecorated
        made.hasHook = registration.hasHook
        made.double = registration.double
        made.isMainActor = registration.isMainActor && !registration.isAsync
        made.isMainActorAsync = registration.isMainActor && registration.isAsync
        if registration.forwards {
            registerForwarding(to: registration.key, in: container, earlierModule: earlier.last ?? nil, module: module)
        }
        let key =
            registration.takesThreeArguments
            ? Self.withThreeArguments(registration.key)
            : registration.takesTwoArguments
                ? Self.withArguments(registration.key)
                : registration.takesArgument ? Self.withArgument(registration.key) : registration.key
        if registration.context == nil {
            noteBase(key, in: container, uid: made.uid, samePlaceAsEarlier: earlier.first ?? nil == module)
        }
        change(key, in: container) { layers in
            if let context = registration.context {
                layers.contextual.append((context, made))
            } else {
                layers.base = made
                layers.overrides = []
            }
        }
    }

    /// `also:` registers a transient of its own, without a context, that resolves `key` from
    /// the asking container the way it was asked: synchronously, or with `await`.
    private mutating func registerForwarding(
        to key: Int, in container: Int, earlierModule: String?, module: String?
    ) {
        var forwarding = make(id: -2, lifetime: .transient)
        forwarding.forward = key
        noteBase(Self.forwarding(key), in: container, uid: forwarding.uid, samePlaceAsEarlier: earlierModule == module)
        change(Self.forwarding(key), in: container) { layers in
            layers.base = forwarding
            layers.overrides = []
        }
    }

    /// An `instance:` registration is a base registration whose value is cached at once, if
    /// it is the one the container resolves the key with; an `owned` one cached so is the
    /// container's to dispose, as if it had made it then.
    mutating func registerInstance(
        container: Int, key: Int, forwards: Bool = false, owned: Bool = false, module: String? = nil
    ) -> Int {
        let earlier = (nodes[container].provenance[key], nodes[container].provenance[Self.forwarding(key)])
        nodes[container].provenance[key] = module
        if forwards { nodes[container].provenance[Self.forwarding(key)] = module }
        nextInstance += 1
        let registration = make(id: -1, lifetime: .singleton, instance: nextInstance)
        if forwards { registerForwarding(to: key, in: container, earlierModule: earlier.1, module: module) }
        noteBase(key, in: container, uid: registration.uid, samePlaceAsEarlier: earlier.0 == module)
        change(key, in: container) { layers in
            layers.base = registration
            layers.overrides = []
        }
        if nodes[container].registration(key)?.uid == registration.uid, !nodes[container].isShutDown {
            nodes[container].cache[key] = .instance(id: nextInstance, dependencies: [])
            if owned { nodes[container].disposables.append(nextInstance) }
        }
        return nextInstance
    }

    /// A registration of `key` without a context, `uid`, is about to be made in `container`:
    /// made again from the same place as this container's own earlier one, it is noted as made
    /// twice; otherwise the key is not.
    private mutating func noteBase(_ key: Int, in container: Int, uid: Int, samePlaceAsEarlier: Bool) {
        // A key with context registrations is not noted: its provenance follows them too.
        let isAgain =
            nodes[container].layers[key]?.base != nil && nodes[container].layers[key]?.contextual.isEmpty != false
            && samePlaceAsEarlier
        nodes[container].twice[key] = isAgain ? uid : nil
    }

    /// The keys `validate()` on `container` warns of: made twice here from one place, the later
    /// registration still the key's registration without a context (an override or a context
    /// in force does not hide it).
    func registeredTwice(in container: Int) -> Set<String> {
        Set(
            nodes[container].twice.compactMap { key, uid in
                nodes[container].layers[key]?.base?.uid == uid ? "twice k\(key)" : nil
            })
    }

    /// Changes `key`'s layers in `container`; when the registration it resolves the key with
    /// changed, forgets the key's cached value here and in every descendant that does not
    /// hold a registration of the key itself.
    private mutating func change(_ key: Int, in container: Int, _ update: (inout Layers) -> Void) {
        let before = nodes[container].registration(key)?.uid
        var layers = nodes[container].layers[key] ?? Layers()
        update(&layers)
        nodes[container].layers[key] = layers.isEmpty ? nil : layers
        if nodes[container].registration(key)?.uid != before { forget(key, in: container) }
    }

    private mutating func forget(_ key: Int, in container: Int) {
        nodes[container].cache[key] = nil
        for child in nodes.indices where nodes[child].parent == container && nodes[child].registration(key) == nil {
            forget(key, in: child)
        }
    }

    /// An override is in force over every other registration of the key until restored.
    mutating func override(_ key: Int, in container: Int, id: Int, lifetime: Lifetime) {
        let registration = make(id: id, lifetime: lifetime)
        overrides.append((container, key, registration.uid))
        change(key, in: container) { $0.overrides.append(registration) }
    }

    /// Restoring ends the override, in any order; forgets values only if that changes the
    /// registration in force. Restored twice, or after the key was registered again, nothing
    /// changes.
    mutating func restore(override index: Int) {
        guard index < overrides.count else { return }
        let (container, key, uid) = overrides[index]
        change(key, in: container) { layers in layers.overrides.removeAll { $0.uid == uid } }
    }

    /// What `checkHealth()` on `container` checks: the values it and its ancestors hold, the
    /// nearest container's for a key held twice; keys to value ids.
    func held(from container: Int) -> [Int: Int] {
        var held: [Int: Int] = [:]
        var level: Int? = container
        while let node = level {
            for (key, outcome) in nodes[node].cache where held[key] == nil && outcome.isInstance {
                held[key] = outcome.id
            }
            level = nodes[node].parent
        }
        return held
    }

    /// `install` of `modules`: those installed already are skipped and satisfy the others'
    /// dependencies; the rest are ordered after what they depend on (in list order otherwise),
    /// a duplicate, a missing dependency or a cycle installing nothing; then each configures in
    /// order, and their registrations apply together once all succeeded, none if one throws.
    mutating func install(_ modules: [Operation.ModuleSpec], ids: [[Int]], in container: Int) -> String {
        let installed = Set(nodes[container].modules.compactMap { Int($0.dropFirst()) })
        let pending = modules.indices.filter { !installed.contains(modules[$0].name) }
        var byName: [Int: Int] = [:]
        for index in pending {
            guard byName.updateValue(index, forKey: modules[index].name) == nil else { return "ordering: duplicate" }
        }
        // A module is ordered after the modules it replaces that are in the list, too.
        func after(_ index: Int) -> [Int] {
            modules[index].dependencies
                + modules[index].replaces.filter { $0 != modules[index].name && byName[$0] != nil }
        }
        var done: Set<Int> = []
        var visiting: Set<Int> = []
        var order: [Int] = []
        func visit(_ index: Int) -> String? {
            if done.contains(index) { return nil }
            if visiting.contains(index) { return "ordering: cycle" }
            visiting.insert(index)
            for dependency in after(index) where !installed.contains(dependency) {
                guard let next = byName[dependency] else { return "ordering: missing" }
                if let failure = visit(next) { return failure }
            }
            visiting.remove(index)
            done.insert(index)
            order.append(index)
            return nil
        }
        for index in pending {
            if let failure = visit(index) { return failure }
        }
        if let failing = order.first(where: { modules[$0].fails }) { return "M\(modules[failing].name) failed" }
        // Then, the modules configured: a key registered by a different module before (here,
        // or by an earlier install) that the later one does not replace is a duplicate...
        var owners = nodes[container].provenance
        for index in order {
            let name = "M\(modules[index].name)"
            for key in modules[index].registrations.flatMap(Self.keys) {
                if let owner = owners[key], owner != name, !modules[index].replaces.map({ "M\($0)" }).contains(owner) {
                    return "module: duplicateRegistration"
                }
                owners[key] = name
            }
        }
        // ...and a requirement that neither the container, its ancestors nor the install
        // register (for no context, or an active one) is unmet.
        var staged: Set<Int> = []
        for index in order {
            for registration in modules[index].registrations
            where registration.context.map({ nodes[container].contexts.contains($0) }) ?? true {
                staged.formUnion(Self.keys(of: registration))
            }
        }
        for index in order {
            for key in modules[index].requirements
            where !staged.contains(key) && registration(of: key, seenFrom: container) == nil {
                return "module: unmetRequirement"
            }
        }
        for index in order {
            let name = "M\(modules[index].name)"
            for (registration, id) in zip(modules[index].registrations, ids[index]) {
                register(registration, id: id, in: container, module: name)
            }
            markInstalled(name, in: container)
            nodes[container].requirements.append((name, modules[index].requirements))
        }
        return "installed \(order.map { "M\(modules[$0].name)" })"
    }

    /// Shutting down disposes, in reverse order of creation, every singleton and scoped value
    /// the container made and cached (also those forgotten or replaced since), once; from then
    /// on it resolves nothing and holds nothing. Its children and scopes go on.
    mutating func shutdown(_ container: Int) -> [Int] {
        guard !nodes[container].isShutDown else { return [] }
        nodes[container].isShutDown = true
        nodes[container].cache = [:]
        defer { nodes[container].disposables = [] }
        return nodes[container].disposables.reversed()
    }

    /// Setting the contexts forgets the values of each key whose registration in force changed,
    /// and, when `test` comes or goes, of each key whose registration here has a test double.
    mutating func setContexts(_ contexts: Set<Int>, in container: Int) {
        let before = Dictionary(
            uniqueKeysWithValues: nodes[container].layers.keys.map {
                ($0, nodes[container].registration($0)?.uid)
            })
        let testChanged = nodes[container].contexts.contains(2) != contexts.contains(2)
        nodes[container].contexts = contexts
        for (key, uid) in before {
            let registration = nodes[container].registration(key)
            if registration?.uid != uid || (testChanged && registration?.double != nil) { forget(key, in: container) }
        }
    }

    /// The lifetime of the registration `container` sees for `key`, if any.
    func lifetime(of key: Int, in container: Int) -> Lifetime? {
        registration(of: key, seenFrom: container)?.registration.lifetime
    }

    /// The registration `container` sees for `key` and the container holding it.
    func registration(of key: Int, seenFrom container: Int) -> (owner: Int, registration: Registration)? {
        var current: Int? = container
        while let node = current {
            if let registration = nodes[node].registration(key) { return (node, registration) }
            current = nodes[node].parent
        }
        return nil
    }

    /// The start-up plan of `container`'s declaration over the dependencies `validate()` found
    /// (`edges`, `kA → kB`), by the rules `StartupPlan` documents: the first screen and its
    /// closure before ready; the keys marked after ready and their closure, less that, after;
    /// planned, of those, each `async` one and each marked one its time reached first (no key
    /// with arguments); each waiting for the planned keys it reaches through unplanned ones.
    /// Hazards: a key marked after ready that the first screen needs, a declared key nothing
    /// registers. `nil` without a declaration.
    func startupPlan(of container: Int, edges: Set<String>)
        -> (services: Set<String>, onDemand: Set<String>, hazards: Set<String>, hasCycle: Bool)?
    {
        guard let declaration = nodes[container].startup else { return nil }
        var isAsync: [Int: Bool] = [:]
        for key in Self.keys {
            if let (_, registration) = registration(of: key, seenFrom: container) {
                isAsync[key] = registration.isAsync
            }
        }
        var needs: [Int: Set<Int>] = [:]
        for edge in edges {
            let ends = edge.split(separator: " → ").compactMap { Int($0.dropFirst()) }
            guard ends.count == 2, isAsync[ends[0]] != nil, isAsync[ends[1]] != nil else { continue }
            needs[ends[0], default: []].insert(ends[1])
        }
        var hazards: Set<String> = []
        for key in declaration.firstScreen + declaration.afterReady where isAsync[key] == nil {
            hazards.insert("unregistered k\(key)")
        }
        let first = Set(declaration.firstScreen.filter { isAsync[$0] != nil })
        let later = Set(declaration.afterReady.filter { isAsync[$0] != nil }).subtracting(first)
        func closure(_ roots: Set<Int>) -> Set<Int> {
            var found = roots
            var pending = Array(roots)
            while let key = pending.popLast() {
                for dependency in needs[key] ?? [] where found.insert(dependency).inserted {
                    pending.append(dependency)
                }
            }
            return found
        }
        let before = closure(first)
        let after = closure(later.subtracting(before)).subtracting(before)
        for key in later where before.contains(key) { hazards.insert("ready k\(key)") }
        let made = before.union(after)
        func planned(_ key: Int) -> Bool {
            made.contains(key) && !(200..<500).contains(key)
                && (isAsync[key] == true || first.contains(key) || (later.contains(key) && after.contains(key)))
        }
        // A cycle among the keys made: what no order can make.
        var waiting = Dictionary(uniqueKeysWithValues: made.map { ($0, (needs[$0] ?? []).intersection(made).count) })
        var ready = made.filter { waiting[$0] == 0 }
        var ordered = 0
        while let key = ready.popFirst() {
            ordered += 1
            for dependent in made where needs[dependent]?.contains(key) == true {
                waiting[dependent, default: 0] -= 1
                if waiting[dependent] == 0 { ready.insert(dependent) }
            }
        }
        var services: Set<String> = []
        for key in made where planned(key) {
            var waitsFor: Set<Int> = []
            var seen: Set<Int> = [key]
            var pending = Array(needs[key] ?? [])
            while let dependency = pending.popLast() {
                guard seen.insert(dependency).inserted, made.contains(dependency) else { continue }
                if planned(dependency) { waitsFor.insert(dependency) } else { pending += needs[dependency] ?? [] }
            }
            services.insert("k\(key) \(before.contains(key) ? "before" : "after") after \(waitsFor.sorted())")
        }
        let onDemand = Set(isAsync.keys.filter { !made.contains($0) }.map { "k\($0)" })
        return (services, onDemand, hazards, ordered < made.count)
    }

    /// What `registrations` lists: each key `container` sees, with the lifetime of the
    /// registration it sees and whether the container holding that registration caches a value.
    func registrations(in container: Int) -> [(key: Int, lifetime: Lifetime, isCached: Bool)] {
        Self.keys.compactMap { key in
            registration(of: key, seenFrom: container).map { owner, registration in
                (key, registration.lifetime, nodes[owner].cache[key] != nil)
            }
        }
    }

    /// Forgets the cached values that `matches`, in `container` and every descendant.
    mutating func reset(below container: Int, where matches: (Int, Lifetime?) -> Bool) {
        for key in Array(nodes[container].cache.keys) where matches(key, lifetime(of: key, in: container)) {
            nodes[container].cache[key] = nil
        }
        for child in nodes.indices where nodes[child].parent == container { reset(below: child, where: matches) }
    }

    /// Unregistering removes every registration of the key (base, contexts, overrides) and
    /// forgets like replacing it: here, and below where not hidden.
    mutating func unregister(_ key: Int, in container: Int) {
        nodes[container].provenance[key] = nil
        guard nodes[container].layers[key] != nil else { return }
        nodes[container].layers[key] = nil
        forget(key, in: container)
    }

    mutating func removeAll(in container: Int) {
        for key in Array(nodes[container].layers.keys) { unregister(key, in: container) }
        nodes[container].cache = [:]
        nodes[container].modules = []
        nodes[container].requirements = []
    }

    /// What `validate()` on `container` reports: it resolves every key `container` sees, in
    /// key order and with `await`, in a copy of `container` and its ancestors with their
    /// registrations and no values; each failure is a problem (a missing key names the service
    /// that needed it, a cycle starts at its smallest key), and so is each dependency of a
    /// singleton on a transient, scoped or `.graph` registration. Factories run for real.
    ///
    /// With `eachKeyAlone`, each key is resolved in a copy of its own, with nothing made by the
    /// keys before it: the rules say the verdict is the same.
    mutating func validate(from container: Int, eachKeyAlone: Bool = false)
        -> (problems: Set<String>, nodes: Set<String>, edges: Set<String>)
    {
        var copy = self
        func forgetValues() {
            var level: Int? = container
            while let node = level {
                copy.nodes[node].cache = [:]
                copy.nodes[node].isShutDown = false
                level = copy.nodes[node].parent
            }
        }
        forgetValues()
        copy.edges = []
        copy.validatesOnMainActor = Self.keys.contains { key in
            registration(of: key, seenFrom: container)?.registration.isMainActor == true
        }
        var problems: Set<String> = []
        // A factory that takes arguments is validated where it is resolved with them.
        for key in Self.keys where key < 200 && registration(of: key, seenFrom: container) != nil {
            if eachKeyAlone { forgetValues() }
            switch copy.resolve(key, from: container, synchronously: false) {
            case .missing(let missing, let from): problems.insert("missing k\(from ?? missing) → k\(missing)")
            case .cycle(let keys):
                let loop = keys.dropLast()
                let start = loop.indices.min { loop[$0] < loop[$1] } ?? loop.startIndex
                let rotated = Array(loop[start...] + loop[..<start])
                problems.insert("cycle \((rotated + rotated.prefix(1)).map { "k\($0)" }.joined(separator: " → "))")
            case .requiresAsync(let dependency, let from):
                problems.insert("async k\(from ?? dependency) → k\(dependency)")
            case .requiresIsolation:
                break  // judged from the graph below
            case .failed(let failing), .argumentMismatch(let failing): problems.insert("failed k\(failing)")
            case .instance, .none, .shutDown: break
            case .scopedOutsideScope: break  // never while validating: validation makes no values
            case .liveOnly: break  // never while validating: it checks the live wiring
            }
        }
        for edge in copy.edges ?? []
        where edge.from.lifetime == .singleton && [.transient, .scoped, .graph].contains(edge.to.lifetime) {
            problems.insert("captive k\(edge.from.key) → k\(edge.to.key) \(edge.to.lifetime)")
        }
        // A non-isolated service that may run off the main actor whatever its caller does —
        // made once, by whoever asks first, or `async` — that reaches a synchronous main-actor
        // service by synchronous resolves, directly or through non-isolated synchronous transient
        // and `.graph` services.
        let synchronous = (copy.edges ?? []).filter(\.synchronously)
        func node(_ frame: Frame) -> [Int] { [frame.key, frame.owner] }
        for start in synchronous.map(\.from)
        where !start.isIsolated && (start.isAsync || [.singleton, .scoped, .weak].contains(start.lifetime)) {
            var seen: Set<[Int]> = [node(start)]
            var pending = synchronous.filter { node($0.from) == node(start) }.map(\.to)
            while let reached = pending.popLast() {
                guard seen.insert(node(reached)).inserted else { continue }
                if reached.isMainActor {
                    problems.insert("isolation k\(start.key) → k\(reached.key)")
                } else if !reached.isIsolated, !reached.isAsync,
                    reached.lifetime == .transient || reached.lifetime == .graph
                {
                    pending += synchronous.filter { node($0.from) == node(reached) }.map(\.to)
                }
            }
        }
        // The requirements of the modules installed here and above, each judged where its
        // module was installed.
        var level: Int? = container
        while let node = level {
            for (module, keys) in self.nodes[node].requirements {
                for key in keys where registration(of: key, seenFrom: node) == nil {
                    problems.insert("unmet \(module) → k\(key)")
                }
            }
            level = self.nodes[node].parent
        }
        runs = copy.runs
        nextInstance = copy.nextInstance
        nextUID = copy.nextUID
        let nodes = Set(
            Self.keys.compactMap { key in
                registration(of: key, seenFrom: container).map { owner, registration in
                    "k\(key) \(registration.lifetime)" + (self.nodes[owner].provenance[key].map { " by \($0)" } ?? "")
                }
            })
        let edges = Set((copy.edges ?? []).map { "k\($0.from.key) → k\($0.to.key)" })
        return (problems, nodes, edges)
    }

    /// A `.graph` value made in one outermost resolution: per key and resolving container.
    struct GraphKey: Hashable {
        let key: Int
        let resolver: Int
    }

    /// A top-level resolve of `key`: `synchronously` for `require` and `resolve`, not for
    /// `resolveAsync`; `onMainActor` for a synchronous one made on the main actor (an `async`
    /// one runs its factories off it, wherever it is called from).
    mutating func resolve(_ key: Int, from container: Int, synchronously: Bool, onMainActor: Bool = false) -> Outcome {
        var graph: [GraphKey: Outcome] = [:]
        return resolve(
            key, from: container, path: [], graph: &graph, synchronously: synchronously, onMainActor: onMainActor)
    }

    /// A top-level resolve of `key?`: `key`'s outcome, or `nil` when nothing registers `key`.
    mutating func resolveOptional(_ key: Int, from container: Int, synchronously: Bool, onMainActor: Bool = false)
        -> Outcome
    {
        var graph: [GraphKey: Outcome] = [:]
        return resolveOptional(
            key, from: container, path: [], graph: &graph, synchronously: synchronously, onMainActor: onMainActor)
    }

    private mutating func resolveOptional(
        _ key: Int, from container: Int, path: [Frame], graph: inout [GraphKey: Outcome], synchronously: Bool,
        onMainActor: Bool
    ) -> Outcome {
        if nodes[container].isShutDown { return .shutDown(key: key) }
        guard registration(of: key, seenFrom: container) != nil else { return .none }
        return resolve(
            key, from: container, path: path, graph: &graph, synchronously: synchronously, onMainActor: onMainActor)
    }

    private mutating func resolve(
        _ key: Int, from container: Int, path: [Frame], graph: inout [GraphKey: Outcome], synchronously: Bool,
        onMainActor: Bool
    ) -> Outcome {
        if nodes[container].isShutDown { return .shutDown(key: key) }
        // Validation records every step: it looks past the asking container's cache.
        if edges == nil, let cached = nodes[container].cache[key] { return cached }
        guard let (owner, registration) = registration(of: key, seenFrom: container) else {
            if Self.siblings(key).contains(where: { registration(of: $0, seenFrom: container) != nil }) {
                return .argumentMismatch(key: key % 100)
            }
            return .missing(key: key, from: path.last?.key)
        }
        let resolver = registration.lifetime == .singleton || registration.lifetime == .weak ? owner : container
        let frame = Frame(
            key: key, owner: owner, resolver: resolver, lifetime: registration.lifetime,
            isMainActor: registration.isMainActor,
            isIsolated: registration.isMainActor || registration.isMainActorAsync, isAsync: registration.isAsync)
        if let start = path.lastIndex(of: frame) { return .cycle(path[start...].map(\.key) + [key]) }
        if edges != nil, let asker = path.last {
            edges?.append(Edge(from: asker, to: frame, synchronously: synchronously))
        }
        // Validation judges the edge: a synchronous resolve of an `async` factory is reported even
        // where the copy already made its value (so the key order cannot decide it).
        if edges != nil, synchronously, registration.isAsync { return .requiresAsync(key: key, from: path.last?.key) }
        let holder: Int? = registration.lifetime == .transient || registration.lifetime == .graph ? nil : resolver
        if let holder, let cached = nodes[holder].cache[key] { return cached }
        if let holder, nodes[holder].isShutDown { return .shutDown(key: key) }
        // A `.scoped` value would be made in a root, which is no scope: an error by default in a
        // debug build (`Diagnostics.validatesScopes`). Validation does not make values.
        if edges == nil, registration.lifetime == .scoped, nodes[resolver].parent == nil,
            nodes[resolver].validatesScopes
        {
            return .scopedOutsideScope(key: key)
        }
        // An `async` factory cannot run in a synchronous resolve; a value it made is served above.
        if synchronously, registration.isAsync { return .requiresAsync(key: key, from: path.last?.key) }
        // A main-actor factory cannot run in a synchronous resolve elsewhere; an `async` resolve
        // hops to the main actor. While validating a graph that has main-actor registrations,
        // every synchronous factory runs there.
        if registration.isMainActor, synchronously, !onMainActor {
            return .requiresIsolation(key: key, from: path.last?.key)
        }
        let onMainActor = registration.isMainActor || (validatesOnMainActor && !registration.isAsync) || onMainActor
        let graphKey = GraphKey(key: key, resolver: resolver)
        if registration.lifetime == .graph, let made = graph[graphKey] { return made }
        // An `instance:` registration is a singleton whose value is given: resolving caches it again.
        if let target = registration.forward {
            return resolve(
                target, from: resolver, path: path + [frame], graph: &graph, synchronously: synchronously,
                onMainActor: onMainActor)
        }
        if let instance = registration.instance {
            let given = Outcome.instance(id: instance, dependencies: [])
            if let holder { nodes[holder].cache[key] = given }
            return given
        }
        // A test double, where the container holding it is a test context (validation checks
        // the live wiring): a refusal, or a test value made without the factory.
        if edges == nil, let double = registration.double, nodes[owner].contexts.contains(2) {
            guard double == .testValue else { return .liveOnly(key: key) }
            nextInstance += 1
            return keep(
                .instance(id: nextInstance, dependencies: []), of: registration, key, holder, graphKey, graph: &graph)
        }
        runs[registration.id, default: 0] += 1
        var dependencies: [Outcome] = []
        for dependency in registration.dependencies {
            // A synchronous factory resolves its dependencies synchronously, where it runs; an
            // `async` one with `await`, off the main actor.
            let synchronously = !registration.isAsync
            let onMainActor = synchronously && onMainActor
            let outcome =
                dependency.isOptional
                ? resolveOptional(
                    dependency.key, from: resolver, path: path + [frame], graph: &graph,
                    synchronously: synchronously, onMainActor: onMainActor)
                : resolve(
                    dependency.key, from: resolver, path: path + [frame], graph: &graph,
                    synchronously: synchronously, onMainActor: onMainActor)
            switch outcome {
            case .instance, .none: dependencies.append(outcome)
            default: return outcome
            }
        }
        if registration.fails { return .failed(key: key) }
        nextInstance += 1
        return keep(
            .instance(id: nextInstance, dependencies: dependencies), of: registration, key, holder, graphKey,
            graph: &graph)
    }

    /// A value `registration` made for `key`: decorated, its hooks run, and cached by its
    /// lifetime in `holder` (or in the resolution's `graph`).
    private mutating func keep(
        _ value: Outcome, of registration: Registration, _ key: Int, _ holder: Int?, _ graphKey: GraphKey,
        graph: inout [GraphKey: Outcome]
    ) -> Outcome {
        var made = value
        // Decorators replace each value made; then the hooks run once on it.
        if registration.isDecorated {
            nextInstance += 1
            made = .instance(id: nextInstance, dependencies: [made])
        }
        if registration.hasHook { runs[Self.hook(of: registration.id), default: 0] += 1 }
        if let holder {
            nodes[holder].cache[key] = made
            if registration.lifetime != .weak { nodes[holder].disposables.append(made.id) }
        }
        if registration.lifetime == .graph { graph[graphKey] = made }
        return made
    }
}
