import Atomics
import InMemoryTracing
import Instrumentation
public import Logging
import Tracing

/// A tracer that writes each span to a logger when it ends, at `debug`: the start-up's run,
/// phase and step spans and each request's span, readable in `weft serve`'s log without a
/// tracing backend.
///
/// Spans are swift-distributed-tracing's `InMemorySpan`s that are handed to the logger as
/// they end and not kept; their ids live only in this process (nothing is injected into or
/// extracted from requests).
struct LogTracer: Tracer {
    let logger: Logger
    private let ids = IDs()

    init(logger: Logger) {
        self.logger = logger
    }

    func startSpan<Instant: TracerInstant>(
        _ operationName: String,
        context: @autoclosure () -> ServiceContext,
        ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant,
        function: String,
        file fileID: String,
        line: UInt
    ) -> InMemorySpan {
        let parent = context()
        let parentSpan = parent.inMemorySpanContext
        let spanContext = InMemorySpanContext(
            traceID: parentSpan?.traceID ?? ids.next(), spanID: ids.next(), parentSpanID: parentSpan?.spanID)
        let logger = logger
        return InMemorySpan(
            operationName: operationName, context: parent, spanContext: spanContext, kind: kind, startInstant: instant()
        ) { span in
            logger.debug("span \(span.operationName)", metadata: Self.metadata(of: span))
        }
    }

    func forceFlush() {}

    func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    )
    where Carrier == Inject.Carrier {}

    func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    )
    where Carrier == Extract.Carrier {}

    /// A finished span as log metadata: ids, duration, attributes (prefixed `span.`), status
    /// and errors.
    static func metadata(of span: FinishedInMemorySpan) -> Logger.Metadata {
        let nanoseconds = span.endInstant.nanosecondsSinceEpoch &- span.startInstant.nanosecondsSinceEpoch
        var metadata: Logger.Metadata = [
            "trace": "\(span.traceID)",
            "span": "\(span.spanID)",
            "ms": "\(Double(nanoseconds) / 1_000_000)",
        ]
        if let parent = span.parentSpanID { metadata["parent"] = "\(parent)" }
        span.attributes.forEach { name, attribute in metadata["span.\(name)"] = "\(plain(attribute))" }
        if let status = span.status { metadata["status"] = "\(status.code)" }
        if !span.errors.isEmpty { metadata["errors"] = "\(span.errors.map { String(describing: $0.error) })" }
        return metadata
    }

    /// An attribute's value as a person writes it: `finished`, `200`, `true`.
    static func plain(_ attribute: SpanAttribute) -> String {
        switch attribute {
        case .string(let value): value
        case .int64(let value): String(value)
        case .int32(let value): String(value)
        case .double(let value): String(value)
        case .bool(let value): String(value)
        case .stringConvertible(let value): value.description
        default: "\(attribute)"
        }
    }

    /// Trace and span ids: a process-unique counter, in hexadecimal.
    private final class IDs: Sendable {
        private let counter = ManagedAtomic<UInt64>(0)

        func next() -> String {
            String(counter.wrappingIncrementThenLoad(ordering: .relaxed), radix: 16)
        }
    }
}

/// The process-wide tracer of `weft`: set once, from the executable, before anything is traced.
public enum AppTracing {
    private static let bootstrapped = ManagedAtomic(false)

    /// Makes every span of this process — start-up steps, requests to the fact server — a
    /// `debug` line on `logger`. Only the first call has an effect: swift-distributed-tracing
    /// takes one tracer per process.
    public static func bootstrap(logger: Logger) {
        if bootstrapped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
            InstrumentationSystem.bootstrap(LogTracer(logger: logger))
        }
    }
}
