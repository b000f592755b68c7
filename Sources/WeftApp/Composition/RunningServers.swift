import FactKit

/// The embedded servers one initialization run started, so they can be stopped when the
/// run is replaced (``AppPlan/switching(to:)``) or the app quits.
///
/// Once ``stopAll()`` ran, a server added later — by an initialization step the run
/// abandoned, which went on in the background — is stopped at once, so no server outlives
/// the run that started it.
actor RunningServers {
    private var servers: [FactServer] = []
    /// Whether ``stopAll()`` ran: every server added since is stopped as it arrives.
    private(set) var isStopped = false

    init() {}

    func add(_ server: FactServer) async {
        guard !isStopped else {
            await server.stop()
            return
        }
        servers.append(server)
    }

    /// Stops every server started so far and releases its port; servers added later are
    /// stopped as they arrive.
    func stopAll() async {
        isStopped = true
        let stopping = servers
        servers = []
        for server in stopping { await server.stop() }
    }
}
