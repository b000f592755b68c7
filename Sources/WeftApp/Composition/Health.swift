public import FactKit
public import Weft

extension HistoryDatabase: HealthCheckable {
    /// Healthy when the database answers a query.
    public func healthCheck() async -> HealthStatus {
        do {
            _ = try await factsStored()
            return .healthy
        } catch {
            return .unhealthy(reason: error.description)
        }
    }
}

extension FactServer: HealthCheckable {
    /// Healthy while listening; degraded when it serves a deliberate fault.
    public func healthCheck() async -> HealthStatus {
        guard isRunning else { return .unhealthy(reason: "the embedded server is not listening") }
        if let fault { return .degraded(reason: "serving the \(fault.rawValue) fault on purpose") }
        return .healthy
    }
}
