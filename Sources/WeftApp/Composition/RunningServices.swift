import AsyncHTTPClient
import Dispatch
import FactKit

/// The embedded servers and the HTTP client one initialization run started, so they can be
/// stopped when the run is replaced (``AppPlan/switching(to:)``) or the app quits.
///
/// Once ``stopAll()`` ran, a service added later — by an initialization step the run
/// abandoned, which went on in the background — is stopped at once, so nothing outlives the
/// run that started it.
actor RunningServices {
    private var servers: [FactServer] = []
    private var clients: [HTTPClient] = []
    /// Whether ``stopAll()`` ran: every service added since is stopped as it arrives.
    private(set) var isStopped = false

    init() {}

    /// A backstop for a run dropped without ``stopAll()`` (a test, an abandoned run): its
    /// clients are shut down without waiting, as AsyncHTTPClient requires of every client.
    deinit {
        for client in clients { client.shutdown(queue: .global()) { _ in } }
    }

    /// Keeps `server` until ``stopAll()``; stops it at once if that already ran.
    func add(_ server: FactServer) async {
        guard !isStopped else {
            await server.stop()
            return
        }
        servers.append(server)
    }

    /// Keeps `client` until ``stopAll()``, which shuts it down; shuts it down at once if
    /// that already ran.
    func add(_ client: HTTPClient) async {
        guard !isStopped else {
            await Self.shutDown(client)
            return
        }
        clients.append(client)
    }

    /// Shuts down every HTTP client (cancelling requests in flight) and stops every server
    /// started so far, releasing its port; services added later are stopped as they arrive.
    func stopAll() async {
        isStopped = true
        let stoppingClients = clients
        let stoppingServers = servers
        clients = []
        servers = []
        for client in stoppingClients { await Self.shutDown(client) }
        for server in stoppingServers { await server.stop() }
    }

    /// Whether this run holds an HTTP client that is not shut down yet.
    var holdsHTTPClient: Bool { !clients.isEmpty }

    private static func shutDown(_ client: HTTPClient) async {
        // The only error is "already shut down", which is what was asked for.
        try? await client.shutdown()
    }
}
