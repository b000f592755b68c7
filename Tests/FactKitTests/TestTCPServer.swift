import Dispatch
import Foundation

/// A bare TCP server on `127.0.0.1` for misbehaviour no HTTP server offers: answers that
/// never come, bodies of 50 MB. Each connection runs `handle` on a thread of its own with
/// blocking sockets; ``stop()`` closes everything and waits for those threads without
/// blocking a Swift concurrency thread (the client under test needs those to finish).
final class TestTCPServer: Sendable {
    /// One accepted connection.
    struct Connection: Sendable {
        let fd: Int32

        /// Sends `data`; `false` once the peer has closed the connection.
        func send(_ data: Data) -> Bool {
            data.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return true }
                var sent = 0
                while sent < buffer.count {
                    let count = Glibc.send(fd, base + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
                    if count <= 0 { return false }
                    sent += count
                }
                return true
            }
        }

        /// Reads the request head (through the blank line), as a server does before it answers.
        func readRequestHead() {
            var head: [UInt8] = []
            var byte: UInt8 = 0
            while recv(fd, &byte, 1, 0) == 1 {
                head.append(byte)
                if head.suffix(4) == [13, 10, 13, 10] { return }
            }
        }

        /// Reads and discards until the peer closes the connection (or the server stops).
        func waitForClose() {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while recv(fd, &buffer, buffer.count, 0) > 0 {}
        }
    }

    /// The server's base URL, such as `http://127.0.0.1:40000`.
    let baseURL: URL
    private let listener: Int32
    private let state = NSLock()
    private let group = DispatchGroup()
    // Guarded by `state`: accepted sockets still open, and whether stop() ran.
    private nonisolated(unsafe) var open: Set<Int32> = []  // only touched under `state`
    private nonisolated(unsafe) var stopped = false  // only touched under `state`

    init(handle: @escaping @Sendable (Connection) -> Void) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw SocketError(call: "socket", code: errno) }
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 16) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound, let url = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))") else {
            close(listener)
            throw SocketError(call: "bind", code: errno)
        }
        baseURL = url
        group.enter()
        Thread.detachNewThread { [self] in
            defer { group.leave() }
            while true {
                let fd = accept(listener, nil, nil)
                guard fd >= 0 else { return }
                let accepted = state.withLock { stopped ? false : open.insert(fd).inserted }
                guard accepted else {
                    close(fd)
                    return
                }
                group.enter()
                Thread.detachNewThread { [self] in
                    handle(Connection(fd: fd))
                    state.withLock { if open.remove(fd) != nil { close(fd) } }
                    group.leave()
                }
            }
        }
    }

    /// Closes the listener and every connection, then waits for the handlers to return.
    func stop() async {
        closeAll()
        await withCheckedContinuation { continuation in group.notify(queue: .global()) { continuation.resume() } }
    }

    private func closeAll() {
        state.withLock {
            guard !stopped else { return }
            stopped = true
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
            // Handlers close their sockets under the lock too, so none of these is reused yet.
            for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }
}

/// Runs `body` with a ``TestTCPServer`` whose connections run `handle`, stopping it afterwards.
func withTCPServer<T: Sendable>(
    handle: @escaping @Sendable (TestTCPServer.Connection) -> Void,
    _ body: (TestTCPServer) async throws -> T
) async throws -> T {
    let server = try TestTCPServer(handle: handle)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// A count shared between a server thread and a test.
final class ByteCounter: Sendable {
    private let lock = NSLock()
    private nonisolated(unsafe) var count = 0  // only touched under `lock`
    func add(_ bytes: Int) { lock.withLock { count += bytes } }
    var value: Int { lock.withLock { count } }
}
