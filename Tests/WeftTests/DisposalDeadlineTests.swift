import Testing
import WeftTesting

@testable import Weft

/// `shutdown(deadline:clock:)`: each disposal has a share of the time; one that overruns it is
/// abandoned and named, and the shutdown returns. Driven by a `ManualClock`: no real waits.
@Suite("Shutdown with a deadline", .timeLimit(.minutes(1)))
struct DisposalDeadlineTests {
    /// Disposed at once; throws when asked to.
    final class Closing: Disposable {
        let name: String
        let log: Log
        let fails: Bool
        init(_ name: String, log: Log, fails: Bool = false) {
            (self.name, self.log, self.fails) = (name, log, fails)
        }
        func dispose() async throws {
            log.append(name)
            if fails { throw Boom() }
        }
    }

    /// A `dispose()` that does not return until the test releases it, cancelled or not.
    final class Stuck: Disposable {
        let name: String
        let log: Log
        let started = Signal()
        let cancelled = Signal()
        let release = Signal()
        init(_ name: String, log: Log) { (self.name, self.log) = (name, log) }
        func dispose() async {
            log.append(name)
            started.fire()
            await withTaskCancellationHandler {
                await release.wait()
            } onCancel: {
                cancelled.fire()
            }
        }
    }

    @Test("A dispose() that never returns is abandoned at its share and named; the later ones still run, in order")
    func neverReturns() async throws {
        let (clock, log) = (ManualClock(), Log())
        let stuck = Stuck("stuck", log: log)
        defer { stuck.release.fire() }
        let container = Container()
        container.register(Closing.self, name: "first", lifetime: .singleton) { Closing("first", log: log) }
        container.register(Stuck.self, lifetime: .singleton) { stuck }
        let stuckLine = #line - 1
        container.register(Closing.self, name: "last", lifetime: .singleton) { Closing("last", log: log) }
        _ = try container.require(Closing.self, name: "first")
        _ = try container.require(Stuck.self)
        _ = try container.require(Closing.self, name: "last")

        let shutdown = Task { try await container.shutdown(deadline: .seconds(9), clock: clock) }
        await stuck.started.wait()
        try await clock.waitForSleepers(1)
        // "last" returned at once: 9 s left for 2 disposals.
        #expect(clock.deadlines == [ManualClock.Instant(offset: .milliseconds(4_500))])
        clock.advance(by: .milliseconds(4_500))
        let error = await #expect(throws: ShutdownError.self) { try await shutdown.value }
        await stuck.cancelled.wait()
        #expect(log.all == ["last", "stuck", "first"])

        let abandoned = try #require(error?.abandoned.first)
        #expect(error?.abandoned.count == 1)
        #expect(error?.failures.isEmpty == true)
        #expect(abandoned.key == ServiceKey(Stuck.self))
        #expect(abandoned.share == .milliseconds(4_500))
        #expect(abandoned.reason == .shareElapsed)
        #expect(abandoned.site == RegistrationSite(fileID: "WeftTests/DisposalDeadlineTests.swift", line: stuckLine))
        let description = "\(error!)"
        #expect(description.contains("Stuck (registered at WeftTests/DisposalDeadlineTests.swift:\(stuckLine))"))
        #expect(description.contains("4.5 s"))
        #expect(description.contains("Make dispose() return within its share, or give shutdown a longer deadline."))
        #expect(clock.sleeperCount == 0)
        #expect(throws: ResolutionError.self) { try container.require(Closing.self, name: "first") }
    }

    @Test("Failures and abandoned disposals are reported together, each with its service")
    func failuresAndAbandoned() async throws {
        let (clock, log) = (ManualClock(), Log())
        let stuck = Stuck("stuck", log: log)
        defer { stuck.release.fire() }
        let container = Container()
        container.register(Closing.self, name: "broken", lifetime: .singleton) {
            Closing("broken", log: log, fails: true)
        }
        container.register(Stuck.self, lifetime: .singleton) { stuck }
        container.register(Closing.self, name: "last", lifetime: .singleton) { Closing("last", log: log) }
        _ = try container.require(Closing.self, name: "broken")
        _ = try container.require(Stuck.self)
        _ = try container.require(Closing.self, name: "last")

        let shutdown = Task { try await container.shutdown(deadline: .seconds(6), clock: clock) }
        await stuck.started.wait()
        try await clock.waitForSleepers(1)
        #expect(clock.deadlines == [ManualClock.Instant(offset: .seconds(3))])
        clock.advance(by: .seconds(3))
        let error = await #expect(throws: ShutdownError.self) { try await shutdown.value }
        #expect(error?.failures.map(\.key) == [ServiceKey(Closing.self, name: "broken")])
        #expect(error?.failures.first?.site?.fileID == "WeftTests/DisposalDeadlineTests.swift")
        #expect(error?.abandoned.map(\.key) == [ServiceKey(Stuck.self)])
        #expect(log.all == ["last", "stuck", "broken"])
        let description = "\(error!)"
        #expect(description.contains("1 service(s) failed, 1 service(s) abandoned"))
        #expect(description.contains("dispose() threw: boom"))
    }

    @Test("When every dispose() returns in time, shutdown(deadline:) is shutdown(): same order, same failures")
    func allFast() async throws {
        func build(_ log: Log, failing: Bool) throws -> Container {
            let container = Container()
            for name in ["a", "b", "c"] {
                container.register(Closing.self, name: name, lifetime: .singleton) {
                    Closing(name, log: log, fails: failing && name == "b")
                }
                _ = try container.require(Closing.self, name: name)
            }
            return container
        }
        for failing in [false, true] {
            let (plainLog, deadlineLog, clock) = (Log(), Log(), ManualClock())
            let plain = try build(plainLog, failing: failing)
            let timed = try build(deadlineLog, failing: failing)
            let plainError: ShutdownError?
            do {
                try await plain.shutdown()
                plainError = nil
            } catch {
                plainError = error
            }
            let timedError: ShutdownError?
            do {
                try await timed.shutdown(deadline: .seconds(1), clock: clock)
                timedError = nil
            } catch {
                timedError = error
            }
            #expect(deadlineLog.all == plainLog.all)
            #expect(deadlineLog.all == ["c", "b", "a"])
            #expect(timedError?.failures.map(\.key) == plainError?.failures.map(\.key))
            #expect(timedError?.abandoned.isEmpty ?? true)
            #expect((timedError == nil) == !failing)
            #expect(clock.sleeperCount == 0)
        }
    }

    @Test("A later call's deadline ends a shutdown() under way: every call returns, the rest is abandoned")
    func laterDeadlineEndsShutdown() async throws {
        let (clock, log) = (ManualClock(), Log())
        let stuck = Stuck("stuck", log: log)
        let earlier = Stuck("earlier", log: log)
        defer {
            stuck.release.fire()
            earlier.release.fire()
        }
        let container = Container()
        container.register(Stuck.self, name: "earlier", lifetime: .singleton) { earlier }
        container.register(Stuck.self, lifetime: .singleton) { stuck }
        _ = try container.require(Stuck.self, name: "earlier")
        _ = try container.require(Stuck.self)

        let unbounded = Task { try await container.shutdown() }
        await stuck.started.wait()
        let bounded = Task { try await container.shutdown(deadline: .seconds(5), clock: clock) }
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(5))
        for task in [bounded, unbounded] {
            let error = await #expect(throws: ShutdownError.self) { try await task.value }
            #expect(error?.abandoned.map(\.key) == [ServiceKey(Stuck.self), ServiceKey(Stuck.self, name: "earlier")])
            #expect(error?.abandoned.map(\.reason) == [.laterDeadline, .laterDeadline])
            #expect(error?.abandoned.map(\.share) == [nil, nil])
        }
        // Each dispose() was still called, once, and cancelled.
        await stuck.cancelled.wait()
        await earlier.cancelled.wait()
        #expect(log.all == ["stuck", "earlier"])
    }

    @Test("A disposal whose turn comes after the deadline gets no time: called cancelled, not awaited")
    func noTimeLeft() async throws {
        let (clock, log) = (ManualClock(), Log())
        let stuck = Stuck("stuck", log: log)
        let earlier = Stuck("earlier", log: log)
        defer {
            stuck.release.fire()
            earlier.release.fire()
        }
        let container = Container()
        container.register(Stuck.self, name: "earlier", lifetime: .singleton) { earlier }
        container.register(Stuck.self, lifetime: .singleton) { stuck }
        _ = try container.require(Stuck.self, name: "earlier")
        _ = try container.require(Stuck.self)

        let shutdown = Task { try await container.shutdown(deadline: .seconds(2), clock: clock) }
        await stuck.started.wait()
        try await clock.waitForSleepers(1)
        #expect(clock.deadlines == [ManualClock.Instant(offset: .seconds(1))])
        clock.advance(by: .seconds(5))  // the share overrun, past the deadline
        let error = await #expect(throws: ShutdownError.self) { try await shutdown.value }
        #expect(error?.abandoned.map(\.reason) == [.shareElapsed, .noTimeLeft])
        #expect(error?.abandoned.map(\.share) == [.seconds(1), .zero])
        #expect("\(error!)".contains("had no time left"))
        await earlier.cancelled.wait()
        #expect(log.all == ["stuck", "earlier"])
    }
}
