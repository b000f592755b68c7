// The article's own types, which it assumes rather than shows.
import Weft

protocol API: Sendable {}
struct LiveAPI: API {}
struct MockAPI: API {}
struct StagingAPI: API {}

protocol Payments: Sendable {
    func charge() async throws
}
struct LivePayments: Payments {
    struct ChargedForReal: Error {}
    func charge() async throws { throw ChargedForReal() }
}
struct FakePayments: Payments {
    func charge() async throws {}
}

final class CheckoutModel {
    struct NoPayments: Error {}
    @Injected var api: (any API)?
    @Injected var payments: (any Payments)?

    func pay() async throws {
        guard let payments else { throw NoPayments() }
        try await payments.charge()
    }
}

struct CoreModule: Module {
    let name = "Core"
    func configure(_ container: Container) async throws {
        container.register((any API).self, lifetime: .singleton) { LiveAPI() }
    }
}

struct NetworkModule: Module {
    let name = "Network"
    let dependencies = ["Core"]
    func configure(_ container: Container) async throws {
        container.register((any Payments).self, lifetime: .singleton) { LivePayments() }
    }
}

struct UserFeature: Module {
    let name = "UserFeature"
    let dependencies = ["Core", "Network"]
    func configure(_ container: Container) async throws {
        container.register(UserService.self) { resolver in
            UserService(api: try resolver.resolve((any API).self))
        }
    }
}

struct UserService {
    let api: any API
}
