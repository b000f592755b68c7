import Weft

/// The article's launch, with the shared container of this process.
func launch() async throws {
    // doc begins
    await Container.bootstrap { container in
        container.register((any API).self, lifetime: .singleton) { LiveAPI() }
    }
    try Container.ensureBootstrapped()
    let sharedAPI = try Container.shared.require((any API).self)
    print(try await sharedAPI.userName(id: 1))  // Ada
    // doc ends
}
