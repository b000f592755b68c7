public import Foundation
import HTTPTypes
package import Hummingbird
import HummingbirdCore
public import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import WeftPrimitives

/// The bundled cat-fact server, speaking catfact.ninja's contract on `127.0.0.1` only.
///
/// Routes: `GET /fact` → `{"fact": String, "length": Int}` (in shuffled order, every fact once
/// before any comes again, never the same twice in a row), `GET /facts?limit=N` →
/// `{"data": [{"fact", "length"}]}` (N from 1; more than the number of facts lists them all;
/// default 10), and `GET /health` → `{"status": "ok", "facts": Int}`. `HEAD` is answered like
/// `GET` without a body; other methods get `405` with an `Allow` header. A ``ServerFault``
/// applies to every route.
///
/// Built on Hummingbird (SwiftNIO's HTTP/1.1 parser, on the event-loop group the HTTP client
/// also uses): a malformed request is answered `400` and closed, a request line or header
/// block over 16 KiB likewise, and a connection that sends nothing (or half a request) for
/// ``readTimeout`` is closed. Connections persist as HTTP/1.1 says, for HTTP/1.0 clients too
/// (`ConnectionPersistenceHandler`).
///
/// In-process use (the `embedded` environment):
///
/// ```swift
/// let server = try FactServer.bundled()          // port 0: an ephemeral port
/// let baseURL = try await server.start()         // returns once listening
/// // … use FactService(baseURL: baseURL, …) …
/// await server.stop()                            // releases the port
/// ```
///
/// Stand-alone on a fixed port: `try await server.run()` serves until the task is
/// cancelled.
///
/// Every request is a span (Hummingbird's `TracingMiddleware`, on the tracer the process
/// bootstrapped; none by default) named after its route, and a log line on `logger`
/// (`LogRequestsMiddleware`, at `info`). The default logger is silent, so the server never
/// writes to stdout or stderr unless given one.
public actor FactServer {
    /// How long ``ServerFault/slow`` waits before answering unless told otherwise: 30 seconds,
    /// longer than any shipped environment's timeout.
    public static let defaultSlowResponseDelay: Duration = .seconds(30)

    /// The facts served.
    public let facts: [String]
    /// The port asked for; `0` means an ephemeral port.
    let requestedPort: UInt16
    /// The deliberate fault, or `nil` when serving normally.
    public let fault: ServerFault?
    /// How long ``ServerFault/slow`` waits before answering.
    let slowResponseDelay: Duration
    /// The clock ``ServerFault/slow`` waits on: the continuous clock, or a clock a test moves.
    let slowResponseClock: any Clock<Duration>
    /// How long a silent connection is kept open.
    let readTimeout: Duration
    /// Where each request is logged; requests carry Hummingbird's `hb.request.id` metadata.
    let logger: Logger
    /// What `/metrics` answers: the process's metrics in the Prometheus text format; `nil`
    /// for no such route.
    let metrics: (@Sendable () -> [UInt8])?

    /// A logger that drops everything: the default, so an embedded server stays quiet.
    public static let silentLogger = Logger(label: "weft.fact-server", factory: { _ in SwiftLogNoOpLogHandler() })

    /// How long a connection may stay silent (nothing read, no request in progress) before
    /// it is closed unless told otherwise: a client that sends half a request and waits does
    /// not hold it forever.
    public static let readTimeout: Duration = .seconds(10)
    /// The largest request line plus headers accepted; more is answered `400` at once.
    static let maximumHeaderSize = 16 * 1024

    private var serverTask: Task<Void, any Error>?
    /// The service group the application runs in, so ``stop()`` can shut it down gracefully.
    private var serviceGroup: ServiceGroup?
    /// The stop in progress, which a concurrent ``stop()`` or ``start()`` waits for.
    private var stopping: Task<Void, Never>?

    /// How long ``stop()`` lets requests in flight finish before cancelling them.
    static let stopGracePeriod: Duration = .milliseconds(500)
    /// The port actually listened on while running, else `nil`.
    private(set) var port: UInt16?

    /// Creates a stopped server.
    ///
    /// - Parameters:
    ///   - facts: The facts to serve; must not be empty.
    ///   - port: The port to listen on; `0` picks a free one (see ``port`` after ``start()``).
    ///   - fault: A deliberate fault, or `nil` to serve normally.
    ///   - slowResponseDelay: How long ``ServerFault/slow`` waits; make it longer than the
    ///     client's timeout.
    ///   - slowResponseClock: The clock ``ServerFault/slow`` waits on; a test passes one it moves.
    ///   - readTimeout: How long a connection that sends nothing is kept open.
    ///   - logger: Where each request is logged; silent by default.
    ///   - metrics: What `/metrics` answers (the Prometheus text format); none by default.
    init(
        facts: [String],
        port: UInt16 = 0,
        fault: ServerFault? = nil,
        slowResponseDelay: Duration = FactServer.defaultSlowResponseDelay,
        slowResponseClock: any Clock<Duration> = ContinuousClock(),
        readTimeout: Duration = FactServer.readTimeout,
        logger: Logger = FactServer.silentLogger,
        metrics: (@Sendable () -> [UInt8])? = nil
    ) throws(FactServerError) {
        guard !facts.isEmpty else { throw .noFacts(reason: "the list of facts is empty") }
        self.facts = facts
        self.requestedPort = port
        self.fault = fault
        self.slowResponseDelay = slowResponseDelay
        self.slowResponseClock = slowResponseClock
        self.readTimeout = readTimeout
        self.logger = logger
        self.metrics = metrics
    }

    /// The base URL clients use while running, such as `http://127.0.0.1:49152`, else `nil`.
    public var baseURL: URL? {
        port.flatMap { URL(string: "http://127.0.0.1:\($0)") }
    }

    /// Whether the server is listening.
    public var isRunning: Bool { port != nil }

    /// Starts listening on `127.0.0.1` and returns the base URL once connections are accepted.
    ///
    /// Calling it while running returns the current base URL.
    @discardableResult
    public func start() async throws(FactServerError) -> URL {
        if let stopping { await stopping.value }
        if let baseURL { return baseURL }
        let handler = FactRequestHandler(
            facts: facts, fault: fault, slowResponseDelay: slowResponseDelay, slowResponseClock: slowResponseClock,
            metrics: metrics)
        // Whichever comes first: listening (with the bound port), or `run()` failing.
        let (outcomes, outcome) = AsyncStream.makeStream(of: Result<Int, any Error>.self)
        let application = Self.makeApplication(
            handler: handler, port: requestedPort, readTimeout: readTimeout, logger: logger
        ) { channel in
            outcome.yield(.success(channel.localAddress?.port ?? 0))
        }
        // In a service group of its own: stopping is a graceful shutdown (see `stop()`).
        let serviceGroup = ServiceGroup(
            configuration: ServiceGroupConfiguration(services: [.init(service: application)], logger: logger))
        let serverTask = Task {
            do {
                try await serviceGroup.run()
                outcome.yield(.failure(FactServerError.stoppedUnexpectedly(reason: "the listener ended")))
            } catch {
                outcome.yield(.failure(error))
                throw error
            }
        }
        var first: Result<Int, any Error> = .failure(FactServerError.stoppedUnexpectedly(reason: "no outcome"))
        for await result in outcomes {
            first = result
            break
        }
        guard case .success(let bound) = first, let boundPort = UInt16(exactly: bound), boundPort != 0 else {
            serverTask.cancel()
            _ = await serverTask.result
            if case .failure(let error) = first { throw Self.listenError(error, port: requestedPort) }
            throw .cannotListen(port: requestedPort, reason: "no IPv4 port")
        }
        self.serverTask = serverTask
        self.serviceGroup = serviceGroup
        self.port = boundPort
        return URL(string: "http://127.0.0.1:\(boundPort)") ?? URL(fileURLWithPath: "/")
    }

    /// Stops listening, closes open connections and releases the port. Does nothing when stopped.
    ///
    /// A graceful shutdown first: the listener closes and the connections it already accepted
    /// are taken in and closed in order (cancelling the server outright while a connection is
    /// being accepted trips a precondition in SwiftNIO's async channel); requests in flight get
    /// `stopGracePeriod` to finish, then are cancelled.
    public func stop() async {
        if let stopping {
            await stopping.value
            return
        }
        guard let serverTask, let serviceGroup else { return }
        self.port = nil
        let stopping = Task {
            await serviceGroup.triggerGracefulShutdown()
            await withTaskGroup(of: Void.self) { race in
                race.addTask { _ = await serverTask.result }
                race.addTask {
                    // Cancelled when the server finished in time; otherwise cancels it.
                    try? await Task.sleep(for: Self.stopGracePeriod)
                    serverTask.cancel()
                }
                await race.next()
                race.cancelAll()
            }
        }
        self.stopping = stopping
        await stopping.value
        self.serverTask = nil
        self.serviceGroup = nil
        self.stopping = nil
    }

    /// Serves in the calling task: the Hummingbird application runs here, so when it runs as a
    /// swift-service-lifecycle `Service` in a `ServiceGroup`, a graceful shutdown (SIGTERM,
    /// Ctrl-C) stops accepting connections and lets requests in flight finish.
    ///
    /// - Parameter onListening: Called once with the base URL when the server is listening.
    /// - Throws: ``FactServerError`` when it cannot listen or stops on its own.
    public func serve(onListening: @escaping @Sendable (URL) -> Void) async throws(FactServerError) {
        let handler = FactRequestHandler(
            facts: facts, fault: fault, slowResponseDelay: slowResponseDelay, slowResponseClock: slowResponseClock,
            metrics: metrics)
        let port = requestedPort
        let application = Self.makeApplication(handler: handler, port: port, readTimeout: readTimeout, logger: logger) {
            channel in
            let bound = channel.localAddress?.port ?? Int(port)
            onListening(URL(string: "http://127.0.0.1:\(bound)") ?? URL(fileURLWithPath: "/"))
        }
        do {
            try await application.run()
        } catch {
            throw Self.listenError(error, port: port)
        }
    }

    /// Starts the server and serves until the calling task is cancelled, then stops it.
    ///
    /// - Parameter onListening: Called once with the base URL when the server is listening,
    ///   for example to print where it serves.
    /// - Throws: ``FactServerError`` when it cannot start or stops on its own.
    public func run(onListening: @Sendable (URL) -> Void = { _ in }) async throws(FactServerError) {
        onListening(try await start())
        guard let serverTask else { return }
        let result = await withTaskCancellationHandler {
            await serverTask.result
        } onCancel: {
            Task { await self.stop() }
        }
        await stop()
        if Task.isCancelled { return }
        if case .failure(let error) = result {
            throw .stoppedUnexpectedly(reason: Self.describe(error))
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? FactServerError { return error.description }
        if let error = error as? IOError { return Self.describe(errno: error.errnoCode) }
        return String(describing: error)
    }

    private static func describe(errno code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }

    /// Why listening on `port` failed, as the server's own error.
    static func listenError(_ error: any Error, port: UInt16) -> FactServerError {
        if let error = error as? FactServerError { return error }
        if let error = error as? IOError {
            switch error.errnoCode {
            case EACCES, EPERM: return .needsPrivileges(port: port)
            case EADDRINUSE: return .portInUse(port: port)
            default: return .cannotListen(port: port, reason: describe(errno: error.errnoCode))
            }
        }
        return .cannotListen(port: port, reason: describe(error))
    }

    /// The Hummingbird application serving `handler` on `127.0.0.1:port`, on SwiftNIO's shared
    /// event-loop group: each request goes through the tracing middleware (a span), then the
    /// request-logging middleware (a line on `logger`), then `handler`.
    private static func makeApplication(
        handler: FactRequestHandler, port: UInt16, readTimeout: Duration, logger: Logger,
        onListening: @escaping @Sendable (any Channel) -> Void
    ) -> some ApplicationProtocol {
        let responder = makeResponder(handler: handler)
        let decoder = HTTP1Channel.Configuration.DecoderConfiguration(
            maxHeaderFieldSize: maximumHeaderSize, maxHeaderListSize: maximumHeaderSize, maxHeaderFieldCount: 100)
        let idleTimeout = TimeAmount.nanoseconds(readTimeout.saturatingNanoseconds)
        return Application(
            responder: responder,
            server: HTTPServerBuilder { responder in
                PersistenceAwareHTTP1Channel(
                    base: HTTP1Channel(
                        responder: responder,
                        configuration: .init(idleTimeout: idleTimeout, httpDecoderConfiguration: decoder)))
            },
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: Int(port)), serverName: nil),
            onServerRunning: { channel in onListening(channel) },
            eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup.singleton),
            logger: logger
        )
    }

    /// What answers each request: the tracing middleware (a span), then the request-logging
    /// middleware (a line on the context's logger), then `handler`. Needs no socket: the fuzz
    /// target `serve-request` calls it directly.
    package static func makeResponder(handler: FactRequestHandler) -> CallbackResponder<FactRequestContext> {
        let tracing = TracingMiddleware<FactRequestContext>()
        let logging = LogRequestsMiddleware<FactRequestContext>(.info)
        return CallbackResponder { (request: Request, context: FactRequestContext) async throws -> Response in
            try await tracing.handle(request, context: context) { request, context in
                try await logging.handle(request, context: context) { request, context in
                    try await answer(request, context: context, handler: handler)
                }
            }
        }
    }

    /// Answers one request with `handler`, and names its route for the request's span.
    private static func answer(_ request: Request, context: FactRequestContext, handler: FactRequestHandler)
        async throws -> Response
    {
        if let route = FactRequestHandler.route(of: request.uri.path) { context.coreContext.endpointPath.value = route }
        let query = request.uri.queryParameters.map { (name: String($0.key), value: String($0.value)) }
        let method = request.method.rawValue
        switch try await handler.handle(method: method, path: request.uri.path, query: query) {
        case .drop:
            // Close without a byte of answer; what is returned next is never written.
            try? await context.channel.close()
            return Response(status: .noContent)
        case .respond(let answer):
            var headers: HTTPFields = [.contentType: answer.contentType]
            if let allow = answer.allow, let name = HTTPField.Name("Allow") { headers[name] = allow }
            let body = ByteBuffer(bytes: answer.body)
            let status = HTTPResponse.Status(code: answer.status)
            if request.method == .head {
                headers[.contentLength] = String(body.readableBytes)
                return Response(
                    status: status, headers: headers, body: ResponseBody(contentLength: body.readableBytes) { _ in })
            }
            return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: body))
        }
    }
}
