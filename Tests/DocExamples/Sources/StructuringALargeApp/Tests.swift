import Testing
import WeftTesting

// doc begins
@Test func accountsModule() async {
    await expectValid(module: AccountsModule())
}

@Test func feedModule() async {
    await expectValid(module: FeedModule(), fakes: [FakeAccountsModule()])
}
// doc ends
