import Accounts
import Testing
import WeftTesting

/// The module test every feature has: the module alone resolves everything it registers.
@Test func accountsModuleIsValidAlone() async {
    await expectValid(module: AccountsModule())
}
