import Foundation
import Testing
import Weft
import WeftInitializer
import WeftPrimitives
import WeftStartup
import WeftTestSupport

/// A process the planned steps leave untouched: the services live in the container.
@MainActor
final class PlannedProcess: DependencyInitializationProcess {
    var toContainer: Int { 0 }
}

/// What the factories did, in the order they did it: `start` when a factory begins, `end` when
/// it returns. Factories run while validating are left out.
private final class Ledger: Sendable {
    enum Event: Hashable {
        case start(Int)
        case end(Int)
    }
    private let events = Locked<[Event]>([])

    func note(_ event: Event) {
        guard !Container.isValidating else { return }
        events.withLock { $0.append(event) }
    }

    var all: [Event] { events.withLock { $0 } }
}

/// A random app: services `s0`…`sN`, each depending on some with a smaller number (a service with
/// a synchronous factory only on synchronous ones), a first screen and services marked after
/// ready.
private struct RandomApp: CustomStringConvertible {
    var isAsync: [Bool] = []
    var needs: [[Int]] = []
    var firstScreen: [Int] = []
    var afterReady: [Int] = []

    init(using generator: inout SplitMix64) {
        let count = Int.random(in: 2...24, using: &generator)
        let density = Double.random(in: 0.05...0.4, using: &generator)
        for service in 0..<count {
            let async = Double.random(in: 0..<1, using: &generator) < 0.7
            isAsync.append(async)
            needs.append(
                (0..<service).filter { dependency in
                    (async || !isAsync[dependency]) && Double.random(in: 0..<1, using: &generator) < density
                })
        }
        let shuffled = Array(0..<count).shuffled(using: &generator)
        firstScreen = Array(shuffled.prefix(Int.random(in: 1...min(3, count), using: &generator)))
        afterReady = Array(shuffled.dropFirst(firstScreen.count).prefix(Int.random(in: 0...3, using: &generator)))
    }

    /// `roots` and everything they depend on.
    func closure(of roots: [Int]) -> Set<Int> {
        var found = Set(roots)
        var pending = roots
        while let service = pending.popLast() {
            for dependency in needs[service] where found.insert(dependency).inserted { pending.append(dependency) }
        }
        return found
    }

    var description: String {
        "\(needs.count) services, needs \(needs), async \(isAsync), first screen \(firstScreen), after ready \(afterReady)"
    }

    static func key(_ service: Int) -> ServiceKey { ServiceKey(Int.self, name: "s\(service)") }

    func container(recordingIn ledger: Ledger) -> Container {
        let container = Container()
        for (service, needs) in needs.enumerated() {
            if isAsync[service] {
                container.register(Int.self, name: "s\(service)", lifetime: .singleton) {
                    (resolver: Resolver) async throws -> Int in
                    ledger.note(.start(service))
                    for dependency in needs { _ = try await resolver.resolve(Int.self, name: "s\(dependency)") }
                    ledger.note(.end(service))
                    return service
                }
            } else {
                container.register(Int.self, name: "s\(service)", lifetime: .singleton) {
                    (resolver: Resolver) throws -> Int in
                    ledger.note(.start(service))
                    for dependency in needs { _ = try resolver.resolve(Int.self, name: "s\(dependency)") }
                    ledger.note(.end(service))
                    return service
                }
            }
        }
        container.startup = StartupDeclaration(
            firstScreen: firstScreen.map(Self.key), afterReady: afterReady.map(Self.key))
        return container
    }
}

@Suite struct StartupPlanPropertyTests {
    /// For random graphs and first screens, the plan and a run of it keep the plan's promises.
    @Test(.timeLimit(.minutes(2))) func aPlannedRunMakesTheFirstScreenBeforeReadyInDependencyOrder() async throws {
        let count = ProcessInfo.processInfo.environment["WEFT_GRAPH_SEQUENCES"].flatMap(Int.init) ?? 200
        for seed in 0..<UInt64(count) {
            var generator = SplitMix64(state: seed)
            let app = RandomApp(using: &generator)
            let agrees = try await check(app)
            #expect(agrees, "seed \(seed): \(app)")
            if !agrees { break }
        }
    }

    private func check(_ app: RandomApp) async throws -> Bool {
        let ledger = Ledger()
        let container = app.container(recordingIn: ledger)
        let report = await container.validate()
        guard let plan = report.startupPlan else { return false }

        // The plan, against a reference made from the random graph.
        let beforeReady = app.closure(of: app.firstScreen)
        let afterReady = app.closure(of: app.afterReady).subtracting(beforeReady)
        // Planned: a service with an `async` factory, or one marked for when it is made (a
        // synchronous one marked after ready that the first screen needs is made by the step
        // that resolves it).
        func planned(_ services: Set<Int>, marked: [Int]) -> Set<ServiceKey> {
            Set(services.filter { app.isAsync[$0] || marked.contains($0) }.map(RandomApp.key))
        }
        var agrees = true
        func expect(_ condition: Bool, _ what: @autoclosure () -> String) {
            if !condition { Issue.record(Comment(rawValue: what())) }
            agrees = agrees && condition
        }
        expect(
            Set(plan.beforeReady.map(\.key)) == planned(beforeReady, marked: app.firstScreen), "before ready: \(plan)")
        expect(Set(plan.afterReady.map(\.key)) == planned(afterReady, marked: app.afterReady), "after ready: \(plan)")
        let onDemand = Set(app.needs.indices).subtracting(beforeReady).subtracting(afterReady)
        expect(Set(plan.onDemand) == Set(onDemand.map(RandomApp.key)), "on demand: \(plan)")
        // A service marked after ready that the first screen needs is the one hazard.
        let waitedFor = plan.hazards.map { $0.code == .neededBeforeReady ? $0.dependency : nil }
        expect(
            Set(waitedFor) == Set(app.afterReady.filter(beforeReady.contains).map(RandomApp.key))
                && waitedFor.count == plan.hazards.count, "hazards: \(plan.hazards)")
        expect(report.problems == plan.hazards, "problems: \(report.problems)")

        // The run.
        let steps = InitializationStep<PlannedProcess>.planned(plan) { _ in container }
        let result = try await DependencyInitializer(createProcess: { PlannedProcess() }, steps: steps).run()
        let run = await result.waitForLaterSteps()
        let events = ledger.all
        func position(_ event: Ledger.Event) -> Int? { events.firstIndex(of: event) }
        // Every service the first screen resolves is made before ready; none outside the
        // closure starts before the last of them is made.
        let madeLast = beforeReady.compactMap { position(.end($0)) }.max() ?? -1
        expect(beforeReady.allSatisfy { position(.end($0)) != nil }, "not made before ready: \(events)")
        for service in Set(app.needs.indices).subtracting(beforeReady) {
            let start = position(.start(service))
            expect(start.map { $0 > madeLast } ?? true, "s\(service) made before ready: \(events)")
            expect((start == nil) == onDemand.contains(service), "s\(service) made, or not, against the plan")
        }
        // Every step starts only after the steps it depends on have ended.
        for service in plan.services {
            guard let timing = run.steps.first(where: { $0.step.id == service.id }) else {
                expect(false, "no step for \(service.key)")
                continue
            }
            for dependency in service.after {
                let end = run.steps.first { $0.step.id == dependency.description }?.endOffset
                expect(
                    end.map { $0 <= timing.startOffset } == true, "\(service.key) started before \(dependency) ended")
            }
            if service.timing == .afterReady {
                expect(run.ready.map { timing.startOffset >= $0 } == true, "\(service.key) started before ready")
            }
        }
        expect(run.steps.allSatisfy { $0.outcome == .finished }, "a step did not succeed: \(run.steps)")
        return agrees
    }
}
