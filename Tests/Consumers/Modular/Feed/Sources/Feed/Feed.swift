public import Accounts
public import Weft

/// The feed's headline, with the name of who posted.
public struct FeedService: Sendable {
    let accounts: any AccountLookup

    public func headline() -> String { "\(accounts.displayName(of: 1)) posted" }
}

/// The feed feature: provides `FeedService`, requires `any AccountLookup` from another module.
public struct FeedModule: Module {
    public let name = "Feed"
    public var requirements: [ServiceKey] { [ServiceKey((any AccountLookup).self)] }

    public init() {}

    public func configure(_ container: Container) async throws {
        container.register(FeedService.self) { resolver in
            FeedService(accounts: try resolver.resolve((any AccountLookup).self))
        }
    }
}

/// The shared container as this package sees it: the app checks that every package sees one.
public func feedRegistry() -> ObjectIdentifier { ObjectIdentifier(Container.shared) }
