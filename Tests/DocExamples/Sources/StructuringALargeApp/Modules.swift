import Weft

// doc begins
struct AccountsModule: Module {
    let name = "Accounts"
    func configure(_ container: Container) async throws {
        container.register((any AccountLookup).self, lifetime: .singleton) { InMemoryAccounts() }
        container.contribute((any HealthCheck).self) { _ in DatabaseCheck() }
    }
}

struct FeedModule: Module {
    let name = "Feed"
    var requirements: [ServiceKey] { [ServiceKey((any AccountLookup).self)] }
    func configure(_ container: Container) async throws {
        container.register(FeedService.self) { resolver in
            FeedService(accounts: try resolver.resolve((any AccountLookup).self))
        }
        container.contribute((any HealthCheck).self) { _ in FeedCheck() }
    }
}
// doc ends

// doc begins
struct FakeAccountsModule: Module {
    let name = "FakeAccounts"
    func configure(_ container: Container) async throws {
        container.register((any AccountLookup).self) { FakeAccounts() }
    }
}
// doc ends

// doc begins
struct OfflineAccountsModule: Module {
    let name = "OfflineAccounts"
    var replaces: [String] { ["Accounts"] }
    func configure(_ container: Container) async throws {
        container.register((any AccountLookup).self, lifetime: .singleton) { InMemoryAccounts() }
    }
}
// doc ends
