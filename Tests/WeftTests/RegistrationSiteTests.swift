import Testing

@testable import Weft

private struct Newsfeed: Sendable {}
private struct Missing: Sendable {}
private final class Slow: Sendable {}
private protocol Animal: Sendable {}
private struct Cat: Animal {}

/// The site of a `register` call written on the line after `line`.
private func site(after line: Int) -> RegistrationSite {
    RegistrationSite(fileID: "WeftTests/RegistrationSiteTests.swift", line: line + 1)
}

@Suite("Registration sites")
struct RegistrationSiteTests {
    @Test("Every register form records the line it is written on")
    @MainActor
    func everyForm() throws {
        let container = Container()
        var expected: [ServiceKey: RegistrationSite] = [:]
        expected[ServiceKey(Newsfeed.self)] = site(after: #line)
        container.register(Newsfeed.self) { Newsfeed() }
        expected[ServiceKey(Newsfeed.self, name: "r")] = site(after: #line)
        container.register(Newsfeed.self, name: "r") { _ in Newsfeed() }
        expected[ServiceKey(Slow.self)] = site(after: #line)
        container.register(Slow.self) { _ async in Slow() }
        expected[ServiceKey(Cat.self)] = site(after: #line)
        container.register(Cat.self, also: (any Animal).self, instance: Cat())
        expected[ServiceKey((any Animal).self)] = expected[ServiceKey(Cat.self)]
        expected[ServiceKey.withArguments(Newsfeed.self, name: nil, Int.self)] = site(after: #line)
        container.register(Newsfeed.self) { (_: Resolver, _: Int) in Newsfeed() }
        expected[ServiceKey(Missing.self)] = site(after: #line)
        container.register(Missing.self, isolation: MainActor.shared) { Missing() }
            .onCreated { _, _ in }
            .decorated { $0 }
        for (key, site) in expected {
            #expect(container.registration(for: key)?.registration.site == site, "\(key)")
        }
        let override = container.override(Newsfeed.self) { Newsfeed() }
        #expect(container.registration(for: ServiceKey(Newsfeed.self))?.registration.site == site(after: #line - 2))
        override.restore()
    }

    @Test("A resolution error names where each service on its path was registered")
    func resolutionError() async throws {
        let container = Container()
        let line = #line + 1
        container.register(Newsfeed.self) { resolver in
            _ = try resolver.resolve(Missing.self)
            return Newsfeed()
        }
        let error = #expect(throws: ResolutionError.self) { try container.require(Newsfeed.self) }
        #expect(error?.sites == [ServiceKey(Newsfeed.self): site(after: line - 1)])
        #expect(
            error?.description.hasPrefix(
                "No registration for Missing (needed by Newsfeed at WeftTests/RegistrationSiteTests.swift:\(line)).")
                == true)
        // The same error from `await`, and from the hook.
        let reported = Log()
        container.diagnostics.onResolutionError = { reported.append("\($0.sites.count)") }
        let asyncError = await #expect(throws: ResolutionError.self) { try await container.resolveAsync(Newsfeed.self) }
        #expect(asyncError?.sites == error?.sites)
        #expect(reported.all == ["1"])
        // A probe's miss costs no look-up and names nothing.
        #expect(container.resolve(Missing.self) == nil)
        #expect(reported.all == ["1"])
    }

    @Test("Validation problems and the graph name registration sites")
    func validation() async throws {
        let container = Container()
        let line = #line + 1
        container.register(Newsfeed.self) { resolver in
            _ = try resolver.resolve(Missing.self)
            return Newsfeed()
        }
        let report = await container.validate()
        let problem = try #require(report.problems.first)
        #expect(problem.site == site(after: line - 1))
        #expect(
            problem.description
                == "Newsfeed (registered at WeftTests/RegistrationSiteTests.swift:\(line)) needs Missing, which is not registered."
        )
        // Equality is the problem's, wherever it was registered.
        #expect(problem == .missingDependency(service: ServiceKey(Newsfeed.self), missing: ServiceKey(Missing.self)))
        #expect(report.graph.dot().contains("Newsfeed\\ntransient\\nWeftTests/RegistrationSiteTests.swift:\(line)"))
        #expect(report.graph.mermaid().contains("Newsfeed · transient · WeftTests/RegistrationSiteTests.swift:\(line)"))
    }

    @Test("A wrapper that registers for its callers passes their file and line")
    func wrapper() {
        func registerFeed(in container: Container, file: String = #fileID, line: UInt = #line) {
            container.register(Newsfeed.self, file: file, line: line) { Newsfeed() }
        }
        let container = Container()
        registerFeed(in: container)
        #expect(container.registration(for: ServiceKey(Newsfeed.self))?.registration.site == site(after: #line - 2))
    }

    @Test("A problem found through other services gives the path from the validated root, each with its site")
    func problemPath() async throws {
        let container = Container()
        let line = #line + 1
        container.register(ServiceA.self) { resolver in
            _ = try resolver.resolve(Newsfeed.self)
            return ServiceA()
        }
        container.register(Newsfeed.self) { resolver in
            _ = try resolver.resolve(Missing.self)
            return Newsfeed()
        }
        let problem = try #require(await container.validate().problems.first)
        // ServiceA sorts after Newsfeed: Newsfeed alone is found first and kept.
        #expect(problem.path == [ServiceKey(Newsfeed.self)])
        let file = "WeftTests/RegistrationSiteTests.swift"
        // From a root whose key sorts first, the path is the whole way down.
        let root = Container()
        root.register(Newsfeed.self) { resolver in
            _ = try resolver.resolve(Missing.self)
            return Newsfeed()
        }
        let rootLine = #line + 1
        root.register(Feeds.self) { resolver in
            _ = try resolver.resolve(Newsfeed.self)
            return Feeds()
        }
        let deep = try #require(await root.validate().problems.first)
        #expect(deep.path == [ServiceKey(Feeds.self), ServiceKey(Newsfeed.self)])
        #expect(
            deep.description
                == "Newsfeed (registered at \(file):\(rootLine - 5)) needs Missing, which is not registered. "
                + "Path: Feeds at \(file):\(rootLine) → Newsfeed at \(file):\(rootLine - 5).")
        _ = line
    }

    @Test("A cycle names where each of its services was registered, as an error and as a problem")
    func cycleSites() async throws {
        let container = Container()
        let line = #line + 1
        container.register(ServiceA.self) { resolver in
            _ = try resolver.resolve(ServiceB.self)
            return ServiceA()
        }
        container.register(ServiceB.self) { resolver in
            _ = try resolver.resolve(ServiceA.self)
            return ServiceB()
        }
        let file = "WeftTests/RegistrationSiteTests.swift"
        let problem = try #require(await container.validate().problems.first)
        #expect(
            problem.description
                == "Circular dependency: ServiceA → ServiceB → ServiceA "
                + "(registered: ServiceA at \(file):\(line), ServiceB at \(file):\(line + 4)).")
    }

    @Test("An argument mismatch names where the service with arguments was registered")
    func argumentMismatchSite() throws {
        let container = Container()
        let line = #line + 1
        container.register(Newsfeed.self) { (_: Resolver, _: Int) in Newsfeed() }
        let error = #expect(throws: ResolutionError.self) { try container.require(Newsfeed.self) }
        #expect(error?.code == .argumentMismatch)
        #expect(error?.sites[ServiceKey(Newsfeed.self)] == site(after: line - 1))
    }
}

private struct Feeds: Sendable {}
