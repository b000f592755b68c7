import AsyncHTTPClient
import Dispatch
import Foundation
import NIOCore
import NIOHTTP1
import WeftTesting

@testable import FactKit

/// A request over AsyncHTTPClient's shared client (which needs no shutdown), returning
/// status, headers and body.
func httpRequest(_ url: URL, method: HTTPMethod = .GET) async throws -> (status: Int, headers: HTTPHeaders, body: Data)
{
    var request = HTTPClientRequest(url: url.absoluteString)
    request.method = method
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
    let body = try await response.body.collect(upTo: 16 * 1024 * 1024)
    return (Int(response.status.code), response.headers, Data(body.readableBytesView))
}

/// A GET, returning status and body.
func httpGet(_ url: URL) async throws -> (status: Int, body: Data) {
    let (status, _, body) = try await httpRequest(url)
    return (status, body)
}

/// The client the tests' services share, configured as the app's is; a global lives as long
/// as the test process, so it is never deinitialized without a shutdown.
let testHTTPClient = FactService.makeHTTPClient()

/// A service on ``testHTTPClient``.
func makeService(_ baseURL: URL, timeout: Duration, maximumBodySize: Int = FactService.defaultMaximumBodySize)
    -> FactService
{
    FactService(baseURL: baseURL, timeout: timeout, client: testHTTPClient, maximumBodySize: maximumBodySize)
}

/// A service on `client` whose timeout runs on `clock`, which the test moves: a request times
/// out when the test advances the clock to its deadline, however busy the machine.
/// AsyncHTTPClient's own real-time limit is a backstop of a minute, which the test's time
/// limit outlasts.
func makeService(_ baseURL: URL, timeout: Duration, on clock: ManualClock, client: HTTPClient = testHTTPClient)
    -> FactService
{
    FactService(
        baseURL: baseURL, timeout: timeout, client: client, maximumBodySize: FactService.defaultMaximumBodySize,
        timer: .on(clock, backstop: .seconds(60)))
}

/// The instant `offset` after a manual clock's start.
func at(_ offset: Duration) -> ManualClock.Instant { ManualClock.Instant(offset: offset) }

/// Runs `body` with a client of its own (no connection shared with other tests), shut down after.
func withOwnClient<T: Sendable>(_ body: (HTTPClient) async throws -> T) async throws -> T {
    let client = FactService.makeHTTPClient()
    do {
        let result = try await body(client)
        try await client.shutdown()
        return result
    } catch {
        try? await client.shutdown()
        throw error
    }
}

/// Runs `body` against a started bundled server, stopping it afterwards.
func withFactServer<T: Sendable>(
    fault: ServerFault? = nil,
    slowResponseDelay: Duration = .seconds(60),
    slowResponseClock: any Clock<Duration> = ContinuousClock(),
    readTimeout: Duration = FactServer.readTimeout,
    _ body: (FactServer, URL) async throws -> T
) async throws -> T {
    let server = try FactServer(
        facts: FactServer.bundledFacts(), fault: fault, slowResponseDelay: slowResponseDelay,
        slowResponseClock: slowResponseClock, readTimeout: readTimeout)
    let baseURL = try await server.start()
    do {
        let result = try await body(server, baseURL)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// What a raw TCP exchange saw: the bytes the server sent and whether it closed the connection.
struct RawExchange: Sendable {
    var received: Data
    /// The server closed the connection (end of stream), rather than the wait running out.
    var closedByServer: Bool
    /// How many bytes of the request were sent before the server stopped taking them.
    var sent = 0
    /// The first line of the answer, such as `HTTP/1.1 400 Bad Request`.
    var statusLine: String {
        String(decoding: received.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self)
    }
}

/// Connects to `127.0.0.1:port`, sends `bytes`, then reads until the server closes the
/// connection or `wait` passes without it doing so. Blocking socket calls, on a thread of
/// its own: on Linux, Dispatch's global queues are the threads Swift concurrency (and so the
/// server under test) runs on, and blocking them would starve the server.
func rawExchange(port: UInt16, sending bytes: Data, wait: Duration = .seconds(30)) async throws -> RawExchange {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try blockingExchange(port: port, bytes: bytes, wait: wait) })
        }
    }
}

struct SocketError: Error, CustomStringConvertible {
    var call: String
    var code: Int32
    var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
}

private func blockingExchange(port: UInt16, bytes: Data, wait: Duration) throws -> RawExchange {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw SocketError(call: "socket", code: errno) }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else { throw SocketError(call: "connect", code: errno) }
    var timeout = timeval(tv_sec: Int(wait.components.seconds), tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var sent = 0
    try bytes.withUnsafeBytes { buffer in
        guard let base = buffer.baseAddress else { return }
        while sent < buffer.count {
            let count = send(fd, base + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
            // The server may answer and close before it read everything: stop sending then.
            if count < 0 {
                if errno == EPIPE || errno == ECONNRESET { return }
                throw SocketError(call: "send", code: errno)
            }
            sent += count
        }
    }
    var received = Data()
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let count = recv(fd, &chunk, chunk.count, 0)
        if count > 0 {
            received.append(contentsOf: chunk[0..<count])
            continue
        }
        if count == 0 { return RawExchange(received: received, closedByServer: true, sent: sent) }
        if errno == ECONNRESET { return RawExchange(received: received, closedByServer: true, sent: sent) }
        if errno == EAGAIN || errno == EWOULDBLOCK {
            return RawExchange(received: received, closedByServer: false, sent: sent)
        }
        throw SocketError(call: "recv", code: errno)
    }
}

/// Whether permission bits are enforced for this process (they are not for root).
let permissionsAreEnforced: Bool = geteuid() != 0
