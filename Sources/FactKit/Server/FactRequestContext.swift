import Hummingbird
import NIOCore

/// The per-request context of ``FactServer``: Hummingbird's core context plus the
/// connection, so the `drop` fault can close it without answering.
struct FactRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection the request arrived on.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }
}
