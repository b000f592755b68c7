import Weft

/// The property wrappers of a `@MainActor` type resolve main-actor services from the shared
/// container, synchronously.
func readWrappers() async {
    await Container.withIsolatedShared {
        await Container.bootstrap { container in
            container.register((any API).self, lifetime: .singleton) { LiveAPI() }
            container.register(ProfileModel.self, isolation: MainActor.shared) { resolver in
                ProfileModel(api: try resolver.resolve((any API).self))
            }
            container.register(EditorModel.self, isolation: MainActor.shared) { EditorModel() }
        }
        await MainActor.run {
            let screen = ProfileScreen()
            precondition(screen.model != nil && screen.editor != nil)
        }
    }
}
