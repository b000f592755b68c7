import Logging
import Testing

@testable import Weft

struct Database: Sendable {}
struct Cache: Sendable {}
struct Session: Sendable {}
struct Feed: Sendable {}
/// A generic service, whose key shows its type's `<…>`.
struct Tagged<Value: Sendable>: Sendable {
    let value: Value
}

struct Probe: HealthCheckable {
    let status: HealthStatus
    func healthCheck() async -> HealthStatus { status }
}

@Suite("Diagnostics")
struct DiagnosticsTests {
    /// A container with one of each problem validate() must find.
    private func brokenContainer() -> Container {
        let container = Container()
        container.register(Feed.self) { resolver in
            _ = try resolver.resolve(Database.self)
            return Feed()
        }  // missing
        container.register(ServiceA.self) { resolver in
            _ = try resolver.resolve(ServiceB.self)
            return ServiceA()
        }
        container.register(ServiceB.self) { resolver in
            _ = try resolver.resolve(ServiceA.self)
            return ServiceB()
        }  // cycle
        container.register(Session.self, lifetime: .scoped) { Session() }
        container.register(Cache.self, lifetime: .singleton) { resolver in
            _ = try resolver.resolve(Session.self)
            return Cache()
        }  // captive
        container.register(ServiceC.self) { () throws -> ServiceC in throw Boom() }  // failing
        container.register(Logger.self) { ConsoleLogger() }  // fine
        return container
    }

    @Test("validate reports every problem at once, each once")
    func validate() async {
        let report = await brokenContainer().validate()
        #expect(!report.isValid)
        #expect(report.problems.count == 4)
        #expect(
            report.problems.contains(
                .missingDependency(service: ServiceKey(Feed.self), missing: ServiceKey(Database.self))))
        #expect(
            report.problems.contains(
                .circularDependency([ServiceKey(ServiceA.self), ServiceKey(ServiceB.self), ServiceKey(ServiceA.self)])))
        #expect(
            report.problems.contains(
                .captiveDependency(
                    singleton: ServiceKey(Cache.self), dependency: ServiceKey(Session.self), lifetime: .scoped)))
        #expect(report.problems.contains(.factoryFailed(service: ServiceKey(ServiceC.self), message: "boom")))
    }

    @Test("validate leaves the container's caches untouched")
    func validateIsThrowaway() async {
        let container = Container()
        let runs = Counter()
        container.register(Service.self, lifetime: .singleton) {
            runs.increment()
            return Service()
        }
        #expect(await container.validate().isValid)
        #expect(runs.value == 1)
        #expect(container.registrations.first?.hasCachedInstance == false)
    }

    @Test("The graph exports registrations and discovered edges as DOT and Mermaid")
    func graph() async {
        let container = Container()
        container.register(Database.self, lifetime: .singleton) { Database() }
        container.register(Feed.self) { resolver in
            _ = try resolver.resolve(Database.self)
            return Feed()
        }
        let graph = await container.graph()
        #expect(graph.nodes.map(\.key) == [ServiceKey(Database.self), ServiceKey(Feed.self)])
        #expect(graph.edges == [DependencyGraph.Edge(from: ServiceKey(Feed.self), to: ServiceKey(Database.self))])
        #expect(graph.dot().contains("\"Feed\" -> \"Database\";"))
        #expect(graph.mermaid().contains("n1 --> n0"))
        #expect(graph.mermaid().hasPrefix("flowchart LR"))
    }

    @Test("Names Graphviz and Mermaid would misread are escaped: quotes, backslashes, a generic type's <…>")
    func graphEscapes() async {
        let container = Container()
        container.register(Database.self, name: #"C:\"#, lifetime: .singleton) { Database() }
        container.register(Tagged<Feed>.self, name: #"say "hi" \N"#) { resolver in
            _ = try resolver.resolve(Database.self, name: #"C:\"#)
            return Tagged(value: Feed())
        }
        let graph = await container.graph()
        let dot = graph.dot().split(separator: "\n").dropFirst(3).map { String($0.dropFirst(2)) }
        // What Graphviz 2.43 shows for these labels: `"C:\" Database`, then `singleton`.
        #expect(
            dot.prefix(2).map { $0.replacing(/\\nWeftTests.*"\]/, with: #""]"#) } == [
                #""\"C:\\\" Database" [label="\"C:\\\" Database\nsingleton"];"#,
                #""\"say \"hi\" \\N\" Tagged<Feed>" [label="\"say \"hi\" \\N\" Tagged<Feed>\ntransient"];"#,
            ])
        #expect(dot[2] == #""\"say \"hi\" \\N\" Tagged<Feed>" -> "\"C:\\\" Database";"#)
        let mermaid = graph.mermaid().split(separator: "\n").map(String.init)
        #expect(mermaid[2].hasPrefix(##"  n1["#quot;say #quot;hi#quot; \N#quot; Tagged#lt;Feed#gt; · transient"##))
    }

    @Test("Slow factories reach the slow-resolution hook; cached resolves do not")
    func slowHook() throws {
        let container = Container()
        let slow = Log()
        container.diagnostics.slowResolutionThreshold = .zero  // every factory run counts as slow
        container.diagnostics.onSlowResolution = { key, _ in slow.append(key.description) }
        container.register(Service.self, lifetime: .singleton) { Service() }
        _ = try container.require(Service.self)
        _ = try container.require(Service.self)
        #expect(slow.all == ["Service"])
    }

    @Test("Resolution errors reach the error hook, and the log at debug: thrown ones, and ones resolve turns into nil")
    func errorHookAndLog() {
        let container = Container()
        let errors = Log()
        let logged = Log()
        container.diagnostics.onResolutionError = { errors.append($0.key.description) }
        _ = try? container.require(Service.self)
        #expect(errors.all == ["Service"])
        container.diagnostics.logger = CapturingLogHandler.logger(logged, level: .info)
        _ = try? container.require(Service.self)
        #expect(logged.all.isEmpty)  // at debug, below the logger's level
        container.diagnostics.logger = CapturingLogHandler.logger(logged, level: .debug)
        _ = try? container.require(Service.self)
        #expect(logged.all.count == 1)
        #expect(logged.all.first?.hasPrefix("debug: No registration for Service") == true)
        container.register(ServiceC.self) { () throws -> ServiceC in throw Boom() }
        #expect(container.resolve(ServiceC.self) == nil)
        #expect(logged.all.count == 2)
        #expect(logged.all.last?.hasPrefix("debug: resolve gave nil: ") == true)
    }

    @Test("With no logger set, a container logs through Logger(label: \"weft\"), where the app's logging system says")
    func defaultLogger() {
        let diagnostics = Diagnostics()
        #expect(diagnostics.logger.label == "weft")
        #expect(!(diagnostics.logger.handler is SwiftLogNoOpLogHandler))
    }

    @Test("resolve -> T? of an unregistered type is a probe: nil, no report; a broken registered service is reported")
    func failurePolicy() {
        let container = Container()
        let errors = Log()
        container.diagnostics.onResolutionError = { errors.append($0.description) }
        #expect(container.resolve(Service.self) == nil)
        #expect(container.resolve(Service.self, name: "named") == nil)
        #expect(errors.all.isEmpty)
        // A missing dependency of a registered service is a failure of that service.
        container.register(Feed.self) { r in
            _ = try r.resolve(Database.self)
            return Feed()
        }
        container.register(ServiceC.self) { () throws -> ServiceC in throw Boom() }
        #expect(container.resolve(Feed.self) == nil)
        #expect(container.resolve(ServiceC.self) == nil)
        #expect(errors.all.count == 2)
        #expect(errors.all.first?.contains("Database") == true)
        #expect(errors.all.last?.contains("boom") == true)
    }

    @Test("A report, a graph, a health report, a registration and a container print as text, not as fields")
    func descriptions() async throws {
        let container = Container()
        container.register(Feed.self) { resolver in
            _ = try resolver.resolve(Database.self)
            return Feed()
        }
        let broken = await container.validate()
        #expect(broken.description.hasPrefix("1 problem:\n  - Feed (registered at "))
        #expect(broken.description.contains("needs Database, which is not registered."))
        container.register(Database.self, lifetime: .singleton) { Database() }
        let report = await container.validate()
        #expect("\(report)" == "valid: 2 services, 1 dependency")
        #expect("\(report.graph)" == "2 services, 1 dependency\n  Database (singleton)\n  Feed (transient) → Database")
        _ = try container.require(Database.self)
        #expect(
            container.registrations.map(\.description).sorted() == ["Database (singleton, made)", "Feed (transient)"])
        container.contexts = [.test]
        #expect("\(container)" == "container of 2 registrations, contexts: test")

        container.register(Probe.self, name: "net", instance: Probe(status: .degraded(reason: "slow")))
        #expect("\(await container.checkHealth())" == "degraded: \"net\" Probe degraded: slow")
        for text in ["\(report)", "\(report.graph)", "\(container)"] {
            #expect(!text.contains("Optional(") && !text.contains("Weft."), "\(text)")
        }
    }

    @Test("Health checks run on held services only and aggregate to the worst status")
    func health() async throws {
        let container = Container()
        container.register(Probe.self, name: "db", lifetime: .singleton) { Probe(status: .healthy) }
        container.register(Probe.self, name: "net", instance: Probe(status: .degraded(reason: "slow")))
        container.register(Probe.self, name: "never", lifetime: .singleton) {
            Probe(status: .unhealthy(reason: "down"))
        }
        _ = try container.require(Probe.self, name: "db")
        let report = await container.checkHealth()
        #expect(report.statuses.count == 2)  // "never" was never created, so not checked
        #expect(report.overall.description == "degraded: slow")
    }
}

@Suite("Validation follows real resolution")
struct ValidationTreeTests {
    @Test("validate on a child finds the dependency a parent's singleton misses in its own container")
    func childValidatesParentSingletonInParent() async {
        let root = Container()
        root.register(Cache.self, lifetime: .singleton) { r in
            _ = try r.resolve(Database.self)
            return Cache()
        }
        let child = Container(parent: root)
        child.register(Database.self) { Database() }
        #expect(throws: ResolutionError.self) { try child.require(Cache.self) }
        let report = await child.validate()
        #expect(
            report.problems == [.missingDependency(service: ServiceKey(Cache.self), missing: ServiceKey(Database.self))]
        )
    }

    @Test("validate on a child reports no captive dependency that a real resolution cannot make")
    func noFalseCaptive() async throws {
        let root = Container()
        root.register(Session.self, lifetime: .singleton) { Session() }
        root.register(Cache.self, lifetime: .singleton) { r in
            _ = try r.resolve(Session.self)
            return Cache()
        }
        let child = Container(parent: root)
        child.register(Session.self, lifetime: .scoped) { Session() }
        _ = try child.require(Cache.self)
        #expect(await child.validate().problems.isEmpty)
    }

    @Test("validate on a child still reports a captive dependency of its own registrations")
    func childCaptive() async {
        let root = Container()
        root.register(Session.self, lifetime: .scoped) { Session() }
        let child = Container(parent: root)
        child.register(Cache.self, lifetime: .singleton) { r in
            _ = try r.resolve(Session.self)
            return Cache()
        }
        #expect(
            await child.validate().problems == [
                .captiveDependency(
                    singleton: ServiceKey(Cache.self), dependency: ServiceKey(Session.self), lifetime: .scoped)
            ])
    }
}

@Suite("A debug trace of every resolution")
struct ResolutionTraceTests {
    @Test("Every resolve is traced once tracing is on: created with a duration, then cached, from the snapshot too")
    func tracesEveryResolve() throws {
        let container = Container()
        container.register(Service.self, lifetime: .singleton) { Service() }
        container.register(Feed.self) { Feed() }
        for _ in 0..<64 { _ = try container.require(Service.self) }  // published lock-free by now
        let traces = Log()
        container.diagnostics.onResolution = { traces.append($0.description) }
        _ = try container.require(Service.self)
        _ = try container.require(Feed.self)
        let scope = container.createScope()
        _ = try scope.require(Service.self)
        #expect(traces.all.count == 3)
        #expect(traces.all.first == "Service (singleton): cached")
        #expect(traces.all[1].hasPrefix("Feed (transient): created in "))
        container.diagnostics.onResolution = nil
        _ = try container.require(Service.self)
        #expect(traces.all.count == 3)
    }

    @Test("A weak value still held is served as cached, traced once per resolve, synchronously and async")
    func tracesHeldWeakValue() async throws {
        let container = Container()
        container.register(Service.self, lifetime: .weak) { Service() }
        let held = try container.require(Service.self)
        let traces = Log()
        container.diagnostics.onResolution = { traces.append($0.description) }
        #expect(try container.require(Service.self) === held)
        #expect(try await container.resolveAsync(Service.self) === held)
        #expect(traces.all == ["Service (weak): cached", "Service (weak): cached"])
        _ = consume held
        _ = try container.require(Service.self)
        #expect(traces.all.count == 3 && traces.all[2].hasPrefix("Service (weak): created in "))
    }
}
