import WeftPrimitives

/// A service that can report whether it works.
public protocol HealthCheckable: Sendable {
    /// The service's current health. Should return promptly.
    func healthCheck() async -> HealthStatus
}

/// How well a service works.
public enum HealthStatus: Sendable, CustomStringConvertible {
    case healthy
    /// Working, but worse than expected.
    case degraded(reason: String)
    /// Not working.
    case unhealthy(reason: String)

    /// Orders statuses from best to worst.
    var severity: Int {
        switch self {
        case .healthy: 0
        case .degraded: 1
        case .unhealthy: 2
        }
    }

    public var description: String {
        switch self {
        case .healthy: "healthy"
        case .degraded(let reason): "degraded: \(reason)"
        case .unhealthy(let reason): "unhealthy: \(reason)"
        }
    }
}

/// The health of every checked service and the worst of them.
public struct HealthReport: Sendable {
    /// Each checked service's status.
    public let statuses: [ServiceKey: HealthStatus]

    /// The worst status, or ``HealthStatus/healthy`` when nothing was checked.
    public var overall: HealthStatus {
        statuses.values.max { $0.severity < $1.severity } ?? .healthy
    }
}

extension Container {
    /// Checks, concurrently, every held service that conforms to ``HealthCheckable``.
    ///
    /// Only values the container already holds (created singletons, scoped values, live weak
    /// values, registered instances) are checked: a health check never creates a service.
    public func checkHealth() async -> HealthReport {
        var checkable: [(ServiceKey, any HealthCheckable)] = []
        var seen: Set<ServiceKey> = []
        var container: Container? = self
        while let current = container {
            let held = current.state.withLock { state in
                state.cache.allInstances().compactMap { key, stored in
                    (stored.value as? any HealthCheckable).map { (key, $0) }
                }
            }
            for (key, service) in held where seen.insert(key).inserted { checkable.append((key, service)) }
            container = current.parent
        }
        let statuses = await withTaskGroup(of: (ServiceKey, HealthStatus).self) { group in
            for (key, service) in checkable {
                group.addTask { (key, await service.healthCheck()) }
            }
            var statuses: [ServiceKey: HealthStatus] = [:]
            for await (key, status) in group { statuses[key] = status }
            return statuses
        }
        return HealthReport(statuses: statuses)
    }
}
