import Weft

// doc begins
@MainActor final class ProfileModel {
    let api: any API
    init(api: any API) { self.api = api }
}

let container = Container()
container.register((any API).self, lifetime: .singleton) { LiveAPI() }
container.register(ProfileModel.self, lifetime: .singleton, isolation: MainActor.shared) { resolver in
    ProfileModel(api: try resolver.resolve((any API).self))
}
// doc ends

// The rules in the article's order. Rule 1 makes the singleton in place, rule 2 gets it from any
// task; rule 3 needs nothing cached, so the singleton is forgotten first.
try showProfile()
try await resolveFromAnyTask()
container.reset(ProfileModel.self)
await resolveSynchronouslyOffTheMainActor()
await validateCoordinators()
await readWrappers()
