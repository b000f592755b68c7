package import Hummingbird
package import NIOCore

/// The per-request context of ``FactServer``: Hummingbird's core context plus the
/// connection, so the `drop` fault can close it without answering.
package struct FactRequestContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    /// The connection the request arrived on.
    package let channel: any Channel

    package init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }
}
