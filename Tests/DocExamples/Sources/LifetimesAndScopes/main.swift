import Weft

registerEveryLifetime()
try oneSessionPerScope(Container())
singletonsByDefault()
try await parentAndChild()

let container = Container()
// doc begins
actor Disposals {
    var order: [String] = []
    func note(_ name: String) { order.append(name) }
}
let disposals = Disposals()

final class Database: Disposable {
    static func open() async throws -> Database { Database() }
    func dispose() async throws { await disposals.note("database") }  // close its connections here
}

final class Server: Disposable {
    let database: Database
    init(database: Database) { self.database = database }
    func dispose() async throws { await disposals.note("server") }  // stop listening here
}

container.register(Database.self, lifetime: .singleton) { _ in try await Database.open() }
container.register(Server.self, lifetime: .singleton) { r in
    Server(database: try await r.resolve(Database.self))
}
_ = try await container.resolveAsync(Server.self)
try await container.shutdown()
print(await disposals.order)  // ["server", "database"]
// doc ends

// doc begins
final class Pool: Disposable {
    let name: String
    init(_ name: String) { self.name = name }
    func dispose() async throws { await disposals.note(name) }  // close its connections here
}

final class Repository: Disposable {
    let pool: Pool
    init(pool: Pool) { self.pool = pool }
    func dispose() async throws { await disposals.note("repository") }
}

let services = Container()
let primary = Pool("primary pool")  // opened at start-up, not by a factory
services.register(Pool.self, owning: primary)  // now the container's to dispose
services.register(Pool.self, name: "replica", instance: Pool("replica pool"))  // still the caller's
services.register(Repository.self, lifetime: .singleton) { r in Repository(pool: try r.resolve(Pool.self)) }
_ = try services.require(Repository.self)
try await services.shutdown()
print(await disposals.order)  // ["server", "database", "repository", "primary pool"]
// doc ends

// doc begins
final class Uploader: Disposable {
    func dispose() async throws { try await Task.sleep(for: .seconds(30)) }  // a flush that hangs
}

let uploads = Container()
uploads.register(Uploader.self, lifetime: .singleton) { _ in Uploader() }
_ = try uploads.require(Uploader.self)
do {
    try await uploads.shutdown(deadline: .milliseconds(200))
} catch {
    print(error.abandoned.map { "\($0.key) \($0.reason)" })  // ["Uploader shareElapsed"]
}
// doc ends
