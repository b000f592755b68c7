import Foundation
import Weft

/// Main-actor state, as a view model is.
@MainActor
final class MainActorModel: Sendable {
    init() {}
}

/// The same, not isolated.
final class PlainModel: Sendable {
    init() {}
}

/// What main-actor registrations cost beside non-isolated ones: the check that a synchronous
/// resolve runs on the main actor, the hop of `resolveAsync`, and the launch race of 8 tasks
/// and the main actor.
enum IsolationBenchmarks {
    static func run() async {
        let container = Container()
        container.register(PlainModel.self) { PlainModel() }
        container.register(MainActorModel.self, isolation: .shared) { MainActorModel() }
        container.register(PlainModel.self, name: "singleton", lifetime: .singleton) { PlainModel() }
        container.register(MainActorModel.self, name: "singleton", lifetime: .singleton, isolation: .shared) {
            MainActorModel()
        }
        _ = try? await container.resolveAsync(MainActorModel.self, name: "singleton")

        // 1. A transient made in place on the main actor.
        let transient = await MainActor.run {
            ContainerTiming.perOp([
                { count in for _ in 0..<count { containerSink(container.resolve(PlainModel.self)) } },
                { count in for _ in 0..<count { containerSink(container.resolve(MainActorModel.self)) } },
            ])
        }
        // 2. A cached singleton read off the main actor: the isolation is never looked at.
        let cached = ContainerTiming.perOp([
            { count in for _ in 0..<count { containerSink(container.resolve(PlainModel.self, name: "singleton")) } },
            { count in for _ in 0..<count { containerSink(container.resolve(MainActorModel.self, name: "singleton")) }
            },
        ])
        // 3. `resolveAsync` of a transient from a background task: made in the task, or after a
        // hop to the main actor and back.
        let hop = await ContainerTiming.perOp([
            { count in for _ in 0..<count { containerSink(try? await container.resolveAsync(PlainModel.self)) } },
            { count in for _ in 0..<count { containerSink(try? await container.resolveAsync(MainActorModel.self)) } },
        ])
        // 4. The launch race: a fresh container's singleton, resolved by 8 background tasks and
        // the main actor at once, until all 9 have it.
        func race(_ resolve: @escaping @Sendable (Container) async -> Void, register: (Container) -> Void) async
            -> Double
        {
            await measureAsync(rounds: 201) {
                let fresh = Container()
                register(fresh)
                await MainActor.run {
                    let tasks = (0..<8).map { _ in Task.detached { await resolve(fresh) } }
                    return Task { @MainActor in
                        _ = fresh.resolve(PlainModel.self, name: "singleton")
                        _ = fresh.resolve(MainActorModel.self, name: "singleton")
                        for task in tasks { await task.value }
                    }
                }.value
            }
        }
        let plainRace = await race({ _ = try? await $0.resolveAsync(PlainModel.self, name: "singleton") }) {
            $0.register(PlainModel.self, name: "singleton", lifetime: .singleton) { PlainModel() }
        }
        let mainRace = await race({ _ = try? await $0.resolveAsync(MainActorModel.self, name: "singleton") }) {
            $0.register(MainActorModel.self, name: "singleton", lifetime: .singleton, isolation: .shared) {
                MainActorModel()
            }
        }
        func row(_ scenario: String, _ plain: Double, _ isolated: Double) -> [String] {
            [
                scenario, formatNanoseconds(plain), formatNanoseconds(isolated),
                String(format: "%+.0f ns", isolated - plain),
            ]
        }
        printTable(
            title: "Main-actor registrations (isolation: MainActor.shared) beside non-isolated ones",
            header: ["scenario", "non-isolated", "main-actor", "difference"],
            rows: [
                row("transient, resolve on the main actor", transient[0], transient[1]),
                row("cached singleton, resolve off the main actor", cached[0], cached[1]),
                row("transient, resolveAsync from a background task", hop[0], hop[1]),
                row("launch race: 8 tasks + the main actor, fresh singleton", plainRace, mainRace),
            ])
    }
}
