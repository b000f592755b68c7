// The article's own types, which it names rather than shows.
import Weft

protocol AccountLookup: Sendable {
    func displayName(of id: Int) -> String
}
struct InMemoryAccounts: AccountLookup {
    func displayName(of id: Int) -> String { id == 1 ? "Alice" : "account \(id)" }
}
struct FakeAccounts: AccountLookup {
    func displayName(of id: Int) -> String { "Test User" }
}

struct FeedService: Sendable {
    let accounts: any AccountLookup
    func headline() -> String { "\(accounts.displayName(of: 1)) posted" }
}

protocol HealthCheck: Sendable {
    var name: String { get }
}
struct DatabaseCheck: HealthCheck { let name = "database" }
struct FeedCheck: HealthCheck { let name = "feed" }
