import Weft

/// Tracing every resolve.
func traceResolves() throws {
    // doc begins
    let traced = Container()
    traced.register(Database.self, lifetime: .singleton) { Database() }
    traced.diagnostics.onResolution = { trace in
        print(trace)  // Database (singleton): created in … seconds
    }
    _ = try traced.require(Database.self)
    _ = try traced.require(Database.self)  // prints: Database (singleton): cached
    // doc ends
    traced.diagnostics.onResolution = nil
}

/// Validating a configuration.
func validateACaptive() async {
    // doc begins
    let checked = Container()
    checked.register(Session.self, lifetime: .scoped) { Session() }
    checked.register(Cache.self, lifetime: .singleton) { r in Cache(session: try r.resolve(Session.self)) }
    let report = await checked.validate()
    for problem in report.problems {
        print(problem)  // Singleton Cache… depends on scoped Session… and would keep one instance of it forever…
    }
    // doc ends
}

/// The dependency graph.
func drawTheGraph() async {
    // doc begins
    let mapped = Container()
    mapped.register(Database.self, lifetime: .singleton) { Database() }
    mapped.register(Feed.self) { r in Feed(database: try r.resolve(Database.self)) }
    let graph = await mapped.graph()
    print(graph.mermaid())
    // doc ends
    let shown = """
        flowchart LR
          n0["Database · singleton · DiagnosticsAndValidation/Examples.swift:34"]
          n1["Feed · transient · DiagnosticsAndValidation/Examples.swift:35"]
          n1 --> n0

        """
    precondition(graph.mermaid() == shown, graph.mermaid())
}

/// Health checks.
func checkHealth() async throws {
    // doc begins
    let monitored = Container()
    monitored.register(ConnectionPool.self, lifetime: .singleton) { ConnectionPool() }

    struct DatabaseHealth: HealthCheckable {
        let pool: ConnectionPool
        func healthCheck() async -> HealthStatus {
            await pool.ping() ? .healthy : .unhealthy(reason: "no connection")
        }
    }

    monitored.register(DatabaseHealth.self, lifetime: .singleton) { r in
        DatabaseHealth(pool: try r.resolve(ConnectionPool.self))
    }
    _ = try monitored.require(DatabaseHealth.self)  // checkHealth() checks only what exists
    let health = await monitored.checkHealth()
    print(health.overall)  // healthy
    // doc ends
    precondition(health.statuses.count == 1)
}

/// Resolution errors.
func tellErrorsApart() {
    // doc begins
    let broken = Container()
    broken.register(Database.self, name: "primary", lifetime: .singleton) { Database() }
    do {
        _ = try broken.require(Database.self)
    } catch {
        switch error.code {
        case .notRegistered:
            print("Did you mean \(error.suggestions)?")  // Did you mean ["primary" Database]?
        case .circularDependency:
            print(error.cycle.map(\.description).joined(separator: " → "))
        case .factoryFailed:
            print("\(error.key) failed: \(String(describing: error.underlyingError))")
        default:
            print(error)
        }
    }
    // doc ends
}

/// The article's side-effecting factory: a server that listens only outside validation.
func keepSideEffectsOutOfValidation() async throws {
    // doc begins
    let servers = Container()
    servers.register(Server.self, lifetime: .singleton) { _ in
        let server = Server()
        if !Container.isValidating { server.listen() }  // no port is opened while validating
        return server
    }
    print(await servers.validate().isValid)  // true
    print(try servers.require(Server.self).isListening)  // true
    print(metrics.count("listen"))  // 1
    // doc ends
}

/// The article's scoped service resolved from a root, with `validatesScopes` on.
func scopedOutsideAScope() throws {
    // doc begins
    let root = Container()
    root.diagnostics.validatesScopes = true
    root.register(Session.self, lifetime: .scoped) { Session() }
    do {
        _ = try root.require(Session.self)
    } catch {
        print(error.code)  // scopedOutsideScope
    }
    let scope = root.createScope()
    print(try scope.require(Session.self) === scope.require(Session.self))  // true
    // doc ends
}
