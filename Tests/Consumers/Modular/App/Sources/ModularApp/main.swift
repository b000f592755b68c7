import Accounts
import Feed
import Weft

// `ModularApp` assembles every feature; `ModularApp --without Accounts` leaves that one out,
// as a build that forgot a package would, and must fail at assembly, naming what is missing.
var modules: [any Module] = [FeedModule(), AccountsModule()]
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.count == 2, arguments[0] == "--without" {
    modules.removeAll { $0.name == arguments[1] }
}
do {
    try await Container.shared.install(modules)
    print(try Container.shared.require(FeedService.self).headline())
    let registries: Set = [ObjectIdentifier(Container.shared), accountsRegistry(), feedRegistry()]
    print(registries.count == 1 ? "one registry" : "\(registries.count) registries")
} catch {
    print("assembly failed: \(error)")
}
