import Accounts
import Feed
import Testing
import Weft
import WeftTesting

/// What the feed's tests put in place of the accounts module.
struct FakeAccounts: AccountLookup {
    func displayName(of id: Int) -> String { "Test User" }
}

struct FakeAccountsModule: Module {
    let name = "FakeAccounts"
    func configure(_ container: Container) async throws {
        container.register((any AccountLookup).self) { FakeAccounts() }
    }
}

/// The feed module alone, its requirement met by the fake.
@Test func feedModuleIsValidWithFakeAccounts() async {
    await expectValid(module: FeedModule(), fakes: [FakeAccountsModule()])
}
