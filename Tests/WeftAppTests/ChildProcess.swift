import Foundation

/// A TCP port on 127.0.0.1 that accepts connections (the kernel completes them into the
/// listen backlog) and never answers: a server that does not answer, with no thread of ours.
final class SilentListener {
    let port: UInt16
    private let fd: Int32

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

/// How a child process ended and what it cost.
struct ChildUsage: Sendable {
    /// The exit status, or 128 + the signal that ended it.
    var status: Int32
    /// User plus system CPU time of the child, from `wait4`'s `rusage`.
    var cpu: Duration
    var user: Duration
    var system: Duration
    /// From spawn to exit.
    var wall: Duration
}

struct ChildProcessError: Error, CustomStringConvertible {
    var what: String
    var code: Int32
    var description: String { "\(what) failed: \(String(cString: strerror(code)))" }
}

/// Runs `executable` with `arguments` (output discarded) to its end, on a thread of its
/// own, and returns its exit status and the CPU time `wait4` reports for it alone.
func runChild(_ executable: String, _ arguments: [String]) async throws -> ChildUsage {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try runChildBlocking(executable, arguments) })
        }
    }
}

private func runChildBlocking(_ executable: String, _ arguments: [String]) throws -> ChildUsage {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let clock = ContinuousClock()
    let started = clock.now
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    guard spawned == 0 else { throw ChildProcessError(what: "spawning \(executable)", code: spawned) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
        guard errno == EINTR else { throw ChildProcessError(what: "waiting for \(executable)", code: errno) }
    }
    let wall = clock.now - started
    let user = Duration.seconds(usage.ru_utime.tv_sec) + .microseconds(usage.ru_utime.tv_usec)
    let system = Duration.seconds(usage.ru_stime.tv_sec) + .microseconds(usage.ru_stime.tv_usec)
    let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return ChildUsage(status: exit, cpu: user + system, user: user, system: system, wall: wall)
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
