import Testing

@testable import Weft

/// The error `body` throws, if any.
private func failure<R>(_ body: () throws(ResolutionError) -> R) -> ResolutionError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// The error `body` throws, if any.
private func failure<R>(_ body: () async throws(ResolutionError) -> R) async -> ResolutionError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}

/// `T?` resolves as `T` does, on every path, except that a `T` nobody registers gives `nil`.
@Suite("Resolving T? is resolving T")
struct OptionalResolutionTests {
    final class Value: Sendable {}

    /// The containers a resolve may start from: the root, a child, a scope.
    static func origins(of root: Container) -> [(String, Container)] {
        [("root", root), ("child", Container(parent: root)), ("scope", root.createScope())]
    }

    @Test("A cached value of an async factory is T? synchronously, from the root, a child and a scope")
    func cachedAsyncValueSynchronously() async throws {
        let root = Container()
        root.register(Value.self, lifetime: .singleton) { _ async in Value() }
        for (origin, container) in Self.origins(of: root) {
            let error = failure { () throws(ResolutionError) in try container.require(Value?.self) }
            #expect(error?.code == .requiresAsync && error?.key == ServiceKey(Value.self), "\(origin)")
            #expect(error?.path == [], "\(origin)")
        }
        let value = try await root.resolveAsync(Value.self)
        for (origin, container) in Self.origins(of: root) {
            #expect(try container.require(Value?.self) === value, "\(origin)")
            #expect(try await container.resolveAsync(Value?.self) === value, "\(origin)")
        }
    }

    @Test("A factory that reads its own T? is a cycle, sync and async, from the root, a child and a scope")
    func selfThroughOptionalIsACycle() async {
        let root = Container()
        root.register(Value.self) { r in
            _ = try r.resolve(Value?.self)
            return Value()
        }
        root.register(Value.self, name: "async") { r async throws in
            _ = try await r.resolve(Value?.self, name: "async")
            return Value()
        }
        let key = ServiceKey(Value.self)
        let asyncKey = ServiceKey(Value.self, name: "async")
        for (origin, container) in Self.origins(of: root) {
            for error in [
                failure { () throws(ResolutionError) in try container.require(Value.self) },
                failure { () throws(ResolutionError) in try container.require(Value?.self) },
            ] {
                #expect(error?.code == .circularDependency && error?.cycle == [key, key], "\(origin): \(error)")
            }
            for error in [
                await failure { () async throws(ResolutionError) in
                    try await container.resolveAsync(Value.self, name: "async")
                },
                await failure { () async throws(ResolutionError) in
                    try await container.resolveAsync(Value?.self, name: "async")
                },
            ] {
                #expect(
                    error?.code == .circularDependency && error?.cycle == [asyncKey, asyncKey], "\(origin): \(error)")
            }
        }
    }

    @Test("A T nobody registers is nil; a missing dependency of T is an error, as for T")
    func missingOnlyAtTheTop() async throws {
        let root = Container()
        root.register(ServiceA.self) { r in
            _ = try r.resolve(Value?.self)
            return ServiceA()
        }
        root.register(ServiceB.self) { r in
            _ = try r.resolve(Value.self)
            return ServiceB()
        }
        for (origin, container) in Self.origins(of: root) {
            #expect(try container.require(Value?.self) == nil, "\(origin)")
            #expect(try await container.resolveAsync(Value?.self) == nil, "\(origin)")
            #expect(throws: Never.self, "\(origin)") { try container.require(ServiceA?.self) }
            let error = #expect(throws: ResolutionError.self, "\(origin)") { try container.require(ServiceB?.self) }
            #expect(error?.code == .notRegistered && error?.key == ServiceKey(Value.self), "\(origin)")
            #expect(error?.path == [ServiceKey(ServiceB.self)], "\(origin)")
        }
    }

    @Test("Many tasks resolving T? and T at once share one singleton")
    func contention() async throws {
        let root = Container()
        let made = Counter()
        root.register(Value.self, lifetime: .singleton) { _ async in
            made.increment()
            return Value()
        }
        let scope = root.createScope()
        let values = try await withThrowingTaskGroup(of: Value?.self) { group in
            for index in 0..<64 {
                group.addTask {
                    switch index % 3 {
                    case 0: try await root.resolveAsync(Value?.self)
                    case 1: try await scope.resolveAsync(Value?.self)
                    default: try await root.resolveAsync(Value.self)
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(made.value == 1)
        #expect(Set(values.map { $0.map(ObjectIdentifier.init) }).count == 1)
    }

    @Test("validate() sees dependencies reached through T?: captive and requires-async, on every container")
    func validateThroughOptional() async {
        let root = Container()
        root.register(ServiceA.self, lifetime: .transient) { ServiceA() }
        root.register(ServiceB.self, lifetime: .transient) { _ async in ServiceB() }
        root.register(Value.self, lifetime: .singleton) { r in
            _ = try r.resolve(ServiceA?.self)
            return Value()
        }
        root.register(Value.self, name: "sync", lifetime: .singleton) { r in
            _ = try r.resolve(ServiceB?.self)
            return Value()
        }
        let captive = ValidationProblem.captiveDependency(
            singleton: ServiceKey(Value.self), dependency: ServiceKey(ServiceA.self), lifetime: .transient)
        let requiresAsync = ValidationProblem.requiresAsync(
            service: ServiceKey(Value.self, name: "sync"), dependency: ServiceKey(ServiceB.self))
        for (origin, container) in Self.origins(of: root) {
            let report = await container.validate()
            #expect(report.problems.contains(captive), "\(origin): \(report.problems)")
            #expect(report.problems.contains(requiresAsync), "\(origin): \(report.problems)")
            #expect(report.problems.allSatisfy { $0.code != .factoryFailed }, "\(origin): \(report.problems)")
        }
    }
}
