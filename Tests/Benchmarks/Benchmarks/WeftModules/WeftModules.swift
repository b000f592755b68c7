import Benchmark
import Foundation
import Weft

// Feature modules at app scale (issue 58): an app of 200 modules of 10 services each (2,000
// registrations), each service resolving the one before it in its module and, for 30% of them,
// a service of an earlier module, which the module then declares as a requirement. One
// iteration installs every module into a new container (requirements and duplicates checked)
// and validates it (every registration resolved in a throwaway copy). Wall time normally;
// `WEFT_BENCHMARK_COUNTS=1` counts mallocs, checked against Thresholds/.

/// Whether this run counts (mallocs) rather than times.
let counts = ProcessInfo.processInfo.environment["WEFT_BENCHMARK_COUNTS"] == "1"

/// A service of the generated app: what it resolved, so nothing is optimized away.
final class Service: Sendable {
    let dependencies: [Service]
    init(_ dependencies: [Service]) { self.dependencies = dependencies }
}

/// One generated feature module: `services` keys, each resolving the keys listed for it.
struct GeneratedModule: Module {
    let name: String
    let dependencies: [String]
    let requirements: [ServiceKey]
    /// Each service's name and the names of the services it resolves.
    let services: [(name: String, resolves: [String])]

    func configure(_ container: Container) async throws {
        for service in services {
            let resolves = service.resolves
            container.register(Service.self, name: service.name, lifetime: .singleton) { resolver in
                Service(try resolves.map { try resolver.resolve(Service.self, name: $0) })
            }
        }
    }
}

/// The generated app: `modules` modules of `services` services, a cross-module edge for a
/// service with probability `density` (a fixed-seed generator: the same app every run).
func generatedApp(modules: Int, services: Int, density: Double) -> [any Module] {
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Double {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(seed >> 11) / Double(1 << 53)
    }
    return (0..<modules).map { module in
        var requirements: [ServiceKey] = []
        var dependencies: Set<String> = []
        let list = (0..<services).map { index -> (name: String, resolves: [String]) in
            var resolves = index > 0 ? ["m\(module).s\(index - 1)"] : []
            if module > 0, next() < density {
                let other = Int(next() * Double(module))
                let target = "m\(other).s\(Int(next() * Double(services)))"
                resolves.append(target)
                requirements.append(ServiceKey(Service.self, name: target))
                dependencies.insert("m\(other)")
            }
            return (name: "m\(module).s\(index)", resolves: resolves)
        }
        return GeneratedModule(
            name: "m\(module)", dependencies: dependencies.sorted(), requirements: requirements, services: list)
    }
}

let benchmarks: @Sendable () -> Void = {
    let app = generatedApp(modules: 200, services: 10, density: 0.3)
    let configuration = Benchmark.Configuration(
        metrics: counts ? [.mallocCountTotal] : [.wallClock], warmupIterations: 1, scalingFactor: .one,
        maxDuration: .seconds(2), maxIterations: 20,
        // Installing and validating 2,000 registrations allocates some 43,000 times; the
        // dictionaries' growth moves that by a few hundred from run to run, one more per
        // registration does not pass.
        thresholds: [.mallocCountTotal: .init(absolute: [.p90: 1_000])])
    Benchmark("modules-200x10-install-validate", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let container = Container()
            do {
                try await container.install(app)
            } catch {
                fatalError("the generated app does not install: \(error)")
            }
            let report = await container.validate()
            guard report.isValid else { fatalError("the generated app is not valid: \(report.problems.prefix(3))") }
            blackHole(report)
        }
    }
}
