import Weft

registerEveryLifetime(in: Container())
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
