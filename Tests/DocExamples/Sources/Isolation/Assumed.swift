// The article's own types, which it assumes rather than shows.
import Weft

protocol API: Sendable {}
struct LiveAPI: API {}

final class Coordinator: Sendable {
    let profile: ProfileModel
    init(profile: ProfileModel) { self.profile = profile }
}

@MainActor final class EditorModel {}
