// The Swift blocks of Sources/Weft/Weft.docc/StructuringALargeApp.md: the modules
// (Modules.swift), the assembly and what it reports (here), and the module tests (Tests.swift),
// run as `swift test` would.
import Testing
import Weft

// doc begins
let app = Container()
do {
    try await app.install([FeedModule()])
} catch let error as ModuleError {
    print(error.code)  // unmetRequirement
}
try await app.install([FeedModule(), AccountsModule()])
print(try app.require(FeedService.self).headline())  // Alice posted
// doc ends

// doc begins
let twice = Container()
do {
    try await twice.install([AccountsModule(), FakeAccountsModule()])
} catch let error as ModuleError {
    print(error.code)  // duplicateRegistration
}
try await twice.install([AccountsModule(), OfflineAccountsModule()])
// doc ends

// doc begins
let modules: [any Module] = [FeedModule(), AccountsModule()]
let testApp = Container()
try await testApp.install(try modules.replacing("Accounts", with: FakeAccountsModule()))
print(try testApp.require(FeedService.self).headline())  // Test User posted
// doc ends

// doc begins
let checks = try app.contributions((any HealthCheck).self)
print(checks.map(\.name))  // ["feed", "database"]
// doc ends

// doc begins
let report = await app.validate()
print(report.contributions[ServiceKey((any HealthCheck).self)] ?? 0)  // 2
print(report.graph.modules.mermaid())
// doc ends

let status: CInt = await Testing.__swiftPMEntryPoint(passing: nil)
precondition(status == 0, "the article's module tests failed")
print("tests passed")
