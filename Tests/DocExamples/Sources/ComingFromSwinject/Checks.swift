import Weft

/// The error `require` throws for `type` on a task off the main actor, if any.
func requireOffMainActor<T: Sendable>(_ type: T.Type, from container: Container) async -> ResolutionError? {
    await Task.detached { () -> ResolutionError? in
        do throws(ResolutionError) {
            _ = try container.require(type)
            return nil
        } catch {
            return error
        }
    }.value
}
