import Weft

// Rule 1.
// doc begins
@MainActor func showProfile() throws {
    let model = try container.require(ProfileModel.self)
    print(type(of: model))  // ProfileModel
}
// doc ends

/// Rule 2, from a task off the main actor.
func resolveFromAnyTask() async throws {
    // doc begins
    let model = try await container.resolveAsync(ProfileModel.self)  // from any task
    print(type(of: model))  // ProfileModel
    // doc ends
}

/// Rule 3.
func resolveSynchronouslyOffTheMainActor() async {
    // doc begins
    await Task.detached {
        do {
            _ = try container.require(ProfileModel.self)
        } catch {
            print(error)  // ProfileModel (registered at …) is created on the main actor, and this … off it. …
        }
    }.value
    // doc ends
}

/// Rule 5.
func validateCoordinators() async {
    // doc begins
    // Reported: a background task that resolves Coordinator first fails.
    container.register(Coordinator.self, lifetime: .singleton) { r in
        Coordinator(profile: try r.resolve(ProfileModel.self))
    }
    print(await container.validate().problems.map(\.code))  // [requiresIsolation]

    // Fine: made on the main actor.
    container.register(Coordinator.self, lifetime: .singleton, isolation: MainActor.shared) { r in
        Coordinator(profile: try r.resolve(ProfileModel.self))
    }
    print(await container.validate().problems.map(\.code))  // []

    // Fine: waits for the main actor.
    container.register(Coordinator.self, lifetime: .singleton) { r async throws in
        Coordinator(profile: try await r.resolve(ProfileModel.self))
    }
    print(await container.validate().problems.map(\.code))  // []
    // doc ends
}

// Property wrappers.
// doc begins
@MainActor final class ProfileScreen {
    @Injected var model: ProfileModel?
    @Factory var editor: EditorModel? = nil
}
// doc ends
