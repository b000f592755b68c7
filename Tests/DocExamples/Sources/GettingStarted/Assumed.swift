// Types the article uses without showing them, as simple as can be.
import Weft

struct Settings: Sendable {
    let region: String
}

protocol Animal: AnyObject, Sendable {}
final class Cat: Animal {}

protocol EventSink: Sendable {}
struct ConsoleSink: EventSink {}
struct AuditSink: EventSink {}

struct DetailModel: Sendable {
    let id: Int
    let api: any API
}

struct Route: Sendable {
    let path: String
    let page: Int
}

struct LoggedAPI: API {
    let base: any API
    init(_ base: any API) { self.base = base }
    func userName(id: Int) async throws -> String { try await base.userName(id: id) }
}

protocol ImageProcessor: Sendable {}
struct BasicImageProcessor: ImageProcessor {}

/// The module `UserFeature` names as "Network": it registers the API and the database.
struct NetworkModule: Module {
    let name = "Network"
    func configure(_ container: Container) async throws {
        container.register((any API).self, lifetime: .singleton) { LiveAPI() }
        container.register(Database.self, lifetime: .singleton) { _ in try await Database.open() }
    }
}
