import Weft

/// Tracing every resolve.
func traceResolves() throws {
    // doc begins
    let container = Container()
    container.register(Database.self, lifetime: .singleton) { Database() }
    container.diagnostics.onResolution = { trace in
        print(trace)  // Database (singleton): created in … seconds
    }
    _ = try container.require(Database.self)
    _ = try container.require(Database.self)  // prints: Database (singleton): cached
    // doc ends
    container.diagnostics.onResolution = nil
}

/// Validating a configuration.
func validateACaptive() async {
    // doc begins
    let container = Container()
    container.register(Session.self, lifetime: .scoped) { Session() }
    container.register(Cache.self, lifetime: .singleton) { r in Cache(session: try r.resolve(Session.self)) }
    let report = await container.validate()
    for problem in report.problems {
        print(problem)  // Singleton Cache… depends on scoped Session… and would keep one instance of it forever…
    }
    // doc ends
}

/// The dependency graph.
func drawTheGraph() async {
    // doc begins
    let container = Container()
    container.register(Database.self, lifetime: .singleton) { Database() }
    container.register(Feed.self) { r in Feed(database: try r.resolve(Database.self)) }
    let graph = await container.graph()
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
    let container = Container()
    container.register(ConnectionPool.self, lifetime: .singleton) { ConnectionPool() }

    struct DatabaseHealth: HealthCheckable {
        let pool: ConnectionPool
        func healthCheck() async -> HealthStatus {
            await pool.ping() ? .healthy : .unhealthy(reason: "no connection")
        }
    }

    container.register(DatabaseHealth.self, lifetime: .singleton) { r in
        DatabaseHealth(pool: try r.resolve(ConnectionPool.self))
    }
    _ = try container.require(DatabaseHealth.self)  // checkHealth() checks only what exists
    let report = await container.checkHealth()
    print(report.overall)  // healthy
    // doc ends
    precondition(report.statuses.count == 1)
}

/// Resolution errors.
func tellErrorsApart() {
    // doc begins
    let container = Container()
    container.register(Database.self, name: "primary", lifetime: .singleton) { Database() }
    do {
        _ = try container.require(Database.self)
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
    let container = Container()
    container.register(Server.self, lifetime: .singleton) { _ in
        let server = Server()
        if !Container.isValidating { server.listen() }  // no port is opened while validating
        return server
    }
    print(await container.validate().isValid)  // true
    print(try container.require(Server.self).isListening)  // true
    print(metrics.count("listen"))  // 1
    // doc ends
}

/// The article's scoped service resolved from a root, with `validatesScopes` on.
func scopedOutsideAScope() throws {
    // doc begins
    let container = Container()
    container.diagnostics.validatesScopes = true
    container.register(Session.self, lifetime: .scoped) { Session() }
    do {
        _ = try container.require(Session.self)
    } catch {
        print(error.code)  // scopedOutsideScope
    }
    let scope = container.createScope()
    print(try scope.require(Session.self) === scope.require(Session.self))  // true
    // doc ends
}
