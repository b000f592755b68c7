// The Swift blocks of Sources/Weft/Weft.docc/GettingStarted.md, run in order. Types the
// article leaves out are in Assumed.swift.

// doc begins
import Weft

protocol API: Sendable {
    func userName(id: Int) async throws -> String
}
struct LiveAPI: API {
    func userName(id: Int) async throws -> String { "Ada" }
}
final class Database: Sendable {
    static func open() async throws -> Database { Database() }  // in an app: connect, migrate…
}
struct UserStore: Sendable {
    let api: any API
    let database: Database
}

let container = Container()
container.register((any API).self, lifetime: .singleton) { LiveAPI() }
container.register(Database.self, lifetime: .singleton) { _ in try await Database.open() }
container.register(UserStore.self) { resolver in
    UserStore(
        api: try await resolver.resolve((any API).self),
        database: try await resolver.resolve(Database.self))
}

let store = try await container.resolveAsync(UserStore.self)  // opens the database once
let api = container.resolve((any API).self)  // (any API)?
let checked = try container.require((any API).self)  // throws ResolutionError
print(try await store.api.userName(id: 1))  // Ada
// doc ends

let again = try await container.resolveAsync(UserStore.self)
precondition(again.database === store.database, "a singleton is made once")
precondition(api != nil && container.resolve(Int.self) == nil, "resolve gives nil when nothing is registered")

// doc begins
container.register(Settings.self, instance: Settings(region: "eu"))
container.register(Cat.self, lifetime: .singleton, also: (any Animal).self) { Cat() }
// doc ends

let animal = try container.require((any Animal).self)
let cat = try container.require(Cat.self)
precondition(animal === cat, "also: resolves to the same value")
precondition(container.resolve(Settings.self)?.region == "eu")

// doc begins
container.register((any EventSink).self) { ConsoleSink() }
container.register((any EventSink).self, name: "audit") { AuditSink() }
let audit = try container.require((any EventSink).self, name: "audit")
// doc ends

precondition(audit is AuditSink && container.resolve((any EventSink).self) is ConsoleSink)

// doc begins
container.register(DetailModel.self) { (resolver: Resolver, id: Int) in
    DetailModel(id: id, api: try resolver.resolve((any API).self))
}
let model = try container.require(DetailModel.self, argument: 7)

container.register(Route.self) { (_: Resolver, path: String, page: Int) in Route(path: path, page: page) }
let route = try container.require(Route.self, arguments: "/items", 2)
// doc ends

precondition(model.id == 7 && route.path == "/items" && route.page == 2)
do {
    _ = try container.require(DetailModel.self, argument: "7")
    preconditionFailure("an argument of another type resolves")
} catch {
    precondition(error.code == .argumentMismatch)
}

// doc begins
container.register((any API).self, lifetime: .singleton) { LiveAPI() }
    .decorated { api in LoggedAPI(api) }
// doc ends

let decorated = try container.require((any API).self)
precondition(decorated is LoggedAPI)

try await launch()

// doc begins
struct UserFeature: Module {
    let name = "UserFeature"
    let dependencies = ["Network"]
    func configure(_ container: Container) async throws {
        container.register(UserStore.self) { resolver in
            UserStore(
                api: try await resolver.resolve((any API).self),
                database: try await resolver.resolve(Database.self))
        }
    }
}

await Container.bootstrapAsync { container in
    let installed = try await container.install([UserFeature(), NetworkModule()])
    print(installed)  // ["Network", "UserFeature"]
}
// doc ends

_ = try await Container.shared.resolveAsync(UserStore.self)

try await whichOneDoIUse()
try await propertyWrappers()
