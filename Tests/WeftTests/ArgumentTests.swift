import Testing

@testable import Weft

@Suite("Factory arguments")
struct ArgumentTests {
    struct DetailModel: Sendable {
        let id: Int
        let title: String
        let logger: any Logger
    }

    struct Route: Sendable, Equatable {
        let path: String
        let page: Int
        let isModal: Bool
    }

    @Test("Swinject ContainerTests.Arguments: one, two and three typed arguments reach the factory")
    func swinjectArguments() throws {
        let container = Container()
        container.register(Logger.self) { ConsoleLogger() }
        container.register(DetailModel.self) { (resolver: Resolver, id: Int) in
            DetailModel(id: id, title: "", logger: try resolver.resolve(Logger.self))
        }
        container.register(DetailModel.self) { (resolver: Resolver, id: Int, title: String) in
            DetailModel(id: id, title: title, logger: try resolver.resolve(Logger.self))
        }
        container.register(Route.self) { (_: Resolver, path: String, page: Int, isModal: Bool) in
            Route(path: path, page: page, isModal: isModal)
        }

        #expect(try container.require(DetailModel.self, argument: 7).id == 7)
        let two = try container.require(DetailModel.self, arguments: 8, "Eight")
        #expect(two.id == 8 && two.title == "Eight")
        #expect(
            try container.require(Route.self, arguments: "/items", 2, true)
                == Route(path: "/items", page: 2, isModal: true))
        #expect(container.resolve(DetailModel.self, argument: 9)?.id == 9)
        #expect(container.resolve(Route.self, arguments: "/", 1, false)?.page == 1)
    }

    @Test("Factory ParameterFactory: each resolve passes its own argument to a transient factory")
    func factoryParameterFactory() throws {
        let container = Container()
        container.register(Service.self) { (_: Resolver, id: Int) in Service(id: id) }
        let first = try container.require(Service.self, argument: 1)
        let second = try container.require(Service.self, argument: 2)
        #expect(first.id == 1 && second.id == 2)
        #expect(first !== second)
    }

    @Test("Swinject: a cached factory with arguments keeps its first value, whatever later arguments are")
    func swinjectCachedWithArguments() throws {
        let container = Container()
        container.register(Service.self, lifetime: .singleton) { (_: Resolver, id: Int) in Service(id: id) }
        let first = try container.require(Service.self, argument: 1)
        #expect(try container.require(Service.self, argument: 2) === first)
    }

    @Test(
        "Arguments are part of the key: the same type without arguments, or with other types, is another registration")
    func argumentsArePartOfTheKey() throws {
        let container = Container()
        container.register(Service.self) { Service(id: 0) }
        container.register(Service.self) { (_: Resolver, id: Int) in Service(id: id) }
        container.register(Service.self) { (_: Resolver, label: String) in Service(id: label.count) }
        #expect(try container.require(Service.self).id == 0)
        #expect(try container.require(Service.self, argument: 5).id == 5)
        #expect(try container.require(Service.self, argument: "four").id == 4)
        #expect(container.registrations.count == 3)
    }

    @Test(
        "Swinject testContainerDoesNotResolveWithWrongArgumentTypes: a typed error names the registered and the given types"
    )
    func swinjectWrongArgumentType() throws {
        let container = Container()
        container.register(DetailModel.self) { (_: Resolver, id: Int) in
            DetailModel(id: id, title: "", logger: ConsoleLogger())
        }
        let error = #expect(throws: ResolutionError.self) { try container.require(DetailModel.self, argument: "7") }
        guard let failure = error, failure.code == .argumentMismatch else {
            Issue.record("expected argumentMismatch, got \(String(describing: error))")
            return
        }
        let key = failure.key
        let registered = failure.registeredArguments
        let given = failure.givenArguments
        #expect(key == ServiceKey(DetailModel.self))
        #expect(registered == Int.self && given == String.self)
        #expect(error?.description.contains("(Int)") == true && error?.description.contains("(String)") == true)

        let none = #expect(throws: ResolutionError.self) { try container.require(DetailModel.self) }
        guard let none, none.code == .argumentMismatch else {
            Issue.record("expected argumentMismatch, got \(String(describing: none))")
            return
        }
        #expect(none.registeredArguments == Int.self && none.givenArguments == Void.self)
        #expect(container.resolve(DetailModel.self, arguments: 1, 2) == nil)
    }

    @Test("Async factories take arguments too, resolved through resolveAsync and a resolver")
    func asyncArguments() async throws {
        let container = Container()
        container.register(Service.self) { (_: Resolver, id: Int) async throws -> Service in
            await Task.yield()
            return Service(id: id)
        }
        container.register(Route.self) { (resolver: Resolver, path: String, page: Int) async throws -> Route in
            let service: Service = try await resolver.resolve(Service.self, argument: page)
            return Route(path: path, page: service.id, isModal: false)
        }
        #expect(try await container.resolveAsync(Service.self, argument: 3).id == 3)
        #expect(try await container.resolveAsync(Route.self, arguments: "/a", 4).page == 4)
        #expect(throws: ResolutionError.self) { try container.require(Service.self, argument: 3) }
    }

    @Test("A factory resolves another service's arguments through its resolver")
    func resolverArguments() throws {
        let container = Container()
        container.register(Service.self) { (_: Resolver, id: Int) in Service(id: id) }
        container.register(Route.self) { (resolver: Resolver) in
            let service = try resolver.resolve(Service.self, argument: 11)
            return Route(path: "/", page: service.id, isModal: false)
        }
        #expect(try container.require(Route.self).page == 11)
    }

    @Test("validate() skips factories that take arguments: they are checked where resolved with them")
    func validationSkipsArguments() async {
        let container = Container()
        container.register(Service.self) { (_: Resolver, id: Int) in Service(id: id) }
        #expect(await container.validate().isValid)
    }
}
