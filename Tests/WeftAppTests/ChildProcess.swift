import Foundation
import NIOConcurrencyHelpers

/// A TCP port on 127.0.0.1 that accepts connections and never answers a byte: a server that
/// does not answer. The test's thread accepts them (see ``watchSilentWait(_:_:listener:)``), so it
/// sees each attempt of the client arrive.
final class SilentListener: Sendable {
    let port: UInt16
    fileprivate let fd: Int32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard fd >= 0, ok else { throw ChildProcessError(what: "listening on 127.0.0.1", code: errno) }
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(fd) }
}

/// The moment a connection arrived, and the CPU time the child had used by then.
struct ConnectionSample: Sendable {
    /// On the continuous clock.
    var at: ContinuousClock.Instant
    /// User plus system CPU time of the child, all its threads, from `/proc/PID/stat`; `nil`
    /// when it could not be read.
    var cpu: Duration?
}

/// How a child that waited on a ``SilentListener`` ended, and what each of its connections saw.
struct SilentWait: Sendable {
    /// The exit status, or 128 + the signal that ended it.
    var status: Int32
    /// One per connection the child opened, in order.
    var connections: [ConnectionSample]
}

struct ChildProcessError: Error, CustomStringConvertible {
    var what: String
    var code: Int32
    var description: String { "\(what) failed: \(String(cString: strerror(code)))" }
}

/// Runs `executable` with `arguments` (output discarded) against `listener`, sampling the
/// child's CPU time as each of its connections arrives; after `connections` of them it sends the
/// child SIGTERM, and returns once the child has ended. Blocking calls, on threads of their own
/// (never a Swift concurrency thread).
///
/// Nothing here waits on the wall clock, but a child that neither connects nor ends within
/// `ceiling` (far longer than any wait it is given) is killed, so the test ends what it started.
func watchSilentWait(
    _ executable: String, _ arguments: [String], listener: SilentListener, connections: Int,
    ceiling: Duration = .seconds(90)
) async throws -> SilentWait {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(
                with: Result {
                    try watchBlocking(
                        executable, arguments, listener: listener, connections: connections, ceiling: ceiling)
                })
        }
    }
}

private func watchBlocking(
    _ executable: String, _ arguments: [String], listener: SilentListener, connections wanted: Int, ceiling: Duration
) throws -> SilentWait {
    // The reaper writes a byte here once the child has ended.
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw ChildProcessError(what: "pipe", code: errno) }
    defer { close(ends[0]) }
    let pid = try spawn(executable, arguments)
    let exit = NIOLockedValueBox<Int32?>(nil)
    let writeEnd = ends[1]
    Thread.detachNewThread {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        exit.withLockedValue { $0 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f) }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
        close(writeEnd)
    }

    var samples: [ConnectionSample] = []
    var accepted: [Int32] = []
    defer { for fd in accepted { close(fd) } }
    var signalled = false
    let milliseconds = Int32(clamping: ceiling.components.seconds * 1_000)
    while true {
        var fds = [
            pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0),
        ]
        let ready = poll(&fds, nfds_t(fds.count), milliseconds)
        if ready < 0 {
            guard errno == EINTR else { throw ChildProcessError(what: "poll", code: errno) }
            continue
        }
        if ready == 0 {
            // Past the ceiling: the child hangs. Kill it; the test fails on what it saw.
            kill(pid, SIGKILL)
            signalled = true
            continue
        }
        if fds[1].revents != 0 { break }
        if fds[0].revents & Int16(POLLIN) != 0 {
            let connection = accept(listener.fd, nil, nil)
            guard connection >= 0 else { continue }
            accepted.append(connection)
            samples.append(ConnectionSample(at: .now, cpu: cpuTime(of: pid)))
            if samples.count == wanted && !signalled {
                kill(pid, SIGTERM)
                signalled = true
            }
        }
    }
    guard let status = exit.withLockedValue({ $0 }) else {
        throw ChildProcessError(what: "waiting for \(executable)", code: ECHILD)
    }
    return SilentWait(status: status, connections: samples)
}

/// Starts `executable` with its standard streams on /dev/null.
private func spawn(_ executable: String, _ arguments: [String]) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    guard spawned == 0 else { throw ChildProcessError(what: "spawning \(executable)", code: spawned) }
    return pid
}

/// User plus system CPU time of the running process `pid`, all its threads (fields 14 and 15
/// of `/proc/PID/stat`, in clock ticks); `nil` when it cannot be read.
private func cpuTime(of pid: pid_t) -> Duration? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return nil }
    // After the name in parentheses (which may hold spaces), field 3 (the state) comes first.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let user = Int64(fields[11]), let system = Int64(fields[12]) else { return nil }
    let ticks = Int64(sysconf(Int32(_SC_CLK_TCK)))
    return .microseconds((user + system) * 1_000_000 / max(ticks, 1))
}

/// An environments file whose one environment is `source` with `timeoutSeconds`.
func silentEnvironmentsFile(in directory: URL, port: UInt16, timeoutSeconds: Int) throws -> URL {
    let file = directory.appendingPathComponent("silent.json")
    let json = """
        {"environments": [{"name": "silent", "description": "A server that never answers.", \
        "source": "http://127.0.0.1:\(port)", "timeoutSeconds": \(timeoutSeconds)}]}
        """
    try Data(json.utf8).write(to: file)
    return file
}
