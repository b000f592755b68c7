/// The embedded servers one initialization run started, so they can be stopped when the
/// run is replaced (``AppPlan/switching(to:)``) or the app quits.
import FactKit

actor RunningServers {
    private var servers: [FactServer] = []

    init() {}

    func add(_ server: FactServer) {
        servers.append(server)
    }

    /// Stops every server started so far and releases its port.
    func stopAll() async {
        let stopping = servers
        servers = []
        for server in stopping { await server.stop() }
    }
}
