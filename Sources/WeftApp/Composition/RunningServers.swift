/// The embedded servers one initialization run started, so they can be stopped when the
/// run is replaced (``AppPlan/switching(to:)``) or the app quits.
public actor RunningServers {
    private var servers: [FactServer] = []

    public init() {}

    func add(_ server: FactServer) {
        servers.append(server)
    }

    /// Stops every server started so far and releases its port.
    public func stopAll() async {
        let stopping = servers
        servers = []
        for server in stopping { await server.stop() }
    }
}
