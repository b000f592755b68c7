import Weft

// doc begins
final class CheckoutModel {
    @Injected var api: (any API)?
    @Injected("audit") var audit: (any EventSink)?
    @Factory var processor: any ImageProcessor = BasicImageProcessor()
}
// doc ends

/// Checks what the article says of the wrappers, with its own shared container.
func propertyWrappers() async throws {
    try await Container.withIsolatedShared {
        let model = CheckoutModel()
        precondition(model.api == nil && model.processor is BasicImageProcessor, "nothing registered yet")
        do {
            _ = try model.$api.resolve()
            preconditionFailure("resolves with nothing registered")
        } catch let error as ResolutionError {
            precondition(error.code == .notRegistered)
        }
        await Container.bootstrap { container in
            container.register((any API).self, lifetime: .singleton) { LiveAPI() }
            container.register((any EventSink).self, name: "audit") { AuditSink() }
        }
        precondition(model.api != nil && model.audit is AuditSink, "tries again on the next access")
    }
}
