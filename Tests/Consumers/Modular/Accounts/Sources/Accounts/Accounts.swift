public import Weft

/// Who an account is, for the features that show people.
public protocol AccountLookup: Sendable {
    func displayName(of id: Int) -> String
}

struct InMemoryAccounts: AccountLookup {
    func displayName(of id: Int) -> String { id == 1 ? "Alice" : "account \(id)" }
}

/// The accounts feature: provides `any AccountLookup`, requires nothing.
public struct AccountsModule: Module {
    public let name = "Accounts"

    public init() {}

    public func configure(_ container: Container) async throws {
        container.register((any AccountLookup).self, lifetime: .singleton) { InMemoryAccounts() }
    }
}

/// The shared container as this package sees it: the app checks that every package sees one.
public func accountsRegistry() -> ObjectIdentifier { ObjectIdentifier(Container.shared) }
