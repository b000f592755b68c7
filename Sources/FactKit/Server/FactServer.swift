import FlyingFox
import FlyingSocks
public import Foundation

/// The bundled cat-fact server, speaking catfact.ninja's contract on `127.0.0.1` only.
///
/// Routes: `GET /fact` → `{"fact": String, "length": Int}`, `GET /facts?limit=N` →
/// `{"data": [{"fact", "length"}]}` (N clamped to 1…number of facts, default 10), and
/// `GET /health` → `{"status": "ok", "facts": Int}`. A ``ServerFault`` applies to every route.
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
/// cancelled. Logging is disabled, so the server never writes to stdout or stderr.
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

    private var server: HTTPServer?
    private var serverTask: Task<Void, any Error>?
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
    init(
        facts: [String],
        port: UInt16 = 0,
        fault: ServerFault? = nil,
        slowResponseDelay: Duration = FactServer.defaultSlowResponseDelay
    ) throws(FactServerError) {
        guard !facts.isEmpty else { throw .noFacts(reason: "the list of facts is empty") }
        self.facts = facts
        self.requestedPort = port
        self.fault = fault
        self.slowResponseDelay = slowResponseDelay
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
        if let baseURL { return baseURL }
        let address: sockaddr_in
        do {
            address = try .inet(ip4: "127.0.0.1", port: requestedPort)
        } catch {
            throw .cannotListen(port: requestedPort, reason: "\(error)")
        }
        let handler = FactRequestHandler(facts: facts, fault: fault, slowResponseDelay: slowResponseDelay)
        let server = HTTPServer(
            address: address,
            timeout: max(15, slowResponseDelay.timeInterval + 5),
            logger: .disabled,
            handler: handler)

        // Whichever comes first: listening, or `run()` failing (for example, port in use).
        let (outcomes, outcome) = AsyncStream.makeStream(of: Result<Void, any Error>.self)
        let serverTask = Task {
            do {
                try await server.run()
                outcome.yield(.failure(FactServerError.stoppedUnexpectedly(reason: "the listener ended")))
            } catch {
                outcome.yield(.failure(error))
                throw error
            }
        }
        let listeningTask = Task {
            do {
                try await server.waitUntilListening(timeout: 10)
                outcome.yield(.success(()))
            } catch {
                outcome.yield(.failure(error))
            }
        }
        var first: Result<Void, any Error> = .failure(FactServerError.stoppedUnexpectedly(reason: "no outcome"))
        for await result in outcomes {
            first = result
            break
        }
        listeningTask.cancel()

        guard case .success = first, case .ip4(_, let boundPort)? = await server.listeningAddress else {
            serverTask.cancel()
            await server.stop()
            _ = await serverTask.result
            let reason: String
            if case .failure(let error) = first { reason = Self.describe(error) } else { reason = "no IPv4 address" }
            throw .cannotListen(port: requestedPort, reason: reason)
        }
        self.server = server
        self.serverTask = serverTask
        self.port = boundPort
        return URL(string: "http://127.0.0.1:\(boundPort)") ?? URL(fileURLWithPath: "/")
    }

    /// Stops listening, closes open connections and releases the port. Does nothing when stopped.
    public func stop() async {
        guard let server, let serverTask else { return }
        self.server = nil
        self.serverTask = nil
        self.port = nil
        await server.stop(timeout: 0)
        serverTask.cancel()
        _ = await serverTask.result
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
            serverTask.cancel()
        }
        await stop()
        if Task.isCancelled { return }
        if case .failure(let error) = result {
            throw .stoppedUnexpectedly(reason: Self.describe(error))
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? FactServerError { return error.description }
        return String(describing: error)
    }
}
