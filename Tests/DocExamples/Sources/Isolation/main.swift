import Weft

let container = Container()
container.register((any API).self, lifetime: .singleton) { LiveAPI() }
// doc begins
@MainActor final class ProfileModel {
    let api: any API
    init(api: any API) { self.api = api }
}

container.register(ProfileModel.self, lifetime: .singleton, isolation: MainActor.shared) { resolver in
    ProfileModel(api: try resolver.resolve((any API).self))
}
// doc ends

// Rule 3 first, while nothing is cached; rule 2 makes the singleton; rule 1 makes it again in place.
await resolveSynchronouslyOffTheMainActor()
try await resolveFromAnyTask()
container.reset(ProfileModel.self)
try showProfile()
await validateCoordinators()
await readWrappers()
