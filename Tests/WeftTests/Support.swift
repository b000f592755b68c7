import Logging
import WeftPrimitives

@testable import Weft

/// A thread-safe counter of factory invocations.
final class Counter: Sendable {
    private let count = Locked(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

protocol Logger: Sendable { var name: String { get } }
struct ConsoleLogger: Logger { var name = "console" }
final class Service: Sendable {
    let id: Int
    init(id: Int = 0) { self.id = id }
}
struct Repository<Entity>: Sendable { let label: String }
struct User {}
struct Product {}

struct ServiceA: Sendable {}
struct ServiceB: Sendable {}
struct ServiceC: Sendable {}

struct Boom: Error, CustomStringConvertible { var description: String { "boom" } }

/// A one-shot signal tasks can wait on: ordering without sleeps.
final class Signal: Sendable {
    private let state = Locked<(fired: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func fire() {
        let waiters = state.withLock { state in
            state.fired = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let fired = state.withLock { state in
                if !state.fired { state.waiters.append(continuation) }
                return state.fired
            }
            if fired { continuation.resume() }
        }
    }
}

extension Container {
    /// Returns once `count` resolves wait for the creation of `key` in this container: an
    /// entry signal for tests about waiters, polled with yields, never a sleep.
    func waitUntil(waiters count: Int, for key: ServiceKey) async {
        while state.withLock({ $0.waiterCount(of: key) }) < count { await Task.yield() }
    }
}

/// A swift-log handler that keeps `level: message` lines, for asserting what a container logs.
struct CapturingLogHandler: LogHandler {
    let lines: Log
    var logLevel: Logging.Logger.Level
    var metadata: Logging.Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logging.Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.append("\(event.level): \(event.message)")
    }

    /// A logger at `level` whose lines end up in `lines`.
    static func logger(_ lines: Log, level: Logging.Logger.Level) -> Logging.Logger {
        Logging.Logger(label: "weft.test") { _ in CapturingLogHandler(lines: lines, logLevel: level) }
    }
}
