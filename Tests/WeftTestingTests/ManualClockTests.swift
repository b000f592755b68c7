import Testing
import WeftTesting

/// The instant `milliseconds` after the clock's start.
private func at(_ milliseconds: Int) -> ManualClock.Instant {
    ManualClock.Instant(offset: .milliseconds(milliseconds))
}

@Suite("ManualClock", .timeLimit(.minutes(1)))
@MainActor
struct ManualClockTests {
    @Test("an advance wakes exactly the sleepers it makes due, earliest deadline first")
    func advanceWakesTheDueSleepersInDeadlineOrder() async throws {
        let clock = ManualClock()
        var woken: Set<Int> = []
        var sleepers: [Int: Task<Void, any Error>] = [:]
        for milliseconds in [30, 10, 40, 20] {
            sleepers[milliseconds] = Task {
                try await clock.sleep(until: at(milliseconds))
                woken.insert(milliseconds)
            }
            // One at a time, so that they go to sleep in this order, not in deadline order.
            try await clock.waitForSleepers(sleepers.count)
        }
        #expect(clock.deadlines == [at(10), at(20), at(30), at(40)])

        #expect(clock.advance(to: at(25)) == [at(10), at(20)])
        try await sleepers[10]?.value
        try await sleepers[20]?.value
        #expect(woken == [10, 20])
        #expect(clock.now == at(25))
        #expect(clock.sleeperCount == 2)
        #expect(clock.deadlines == [at(30), at(40)])

        #expect(clock.advance(by: .milliseconds(4)).isEmpty)  // to 29: nobody is due
        // To 40: both are due, 40 exactly at its deadline.
        #expect(clock.advance(by: .milliseconds(11)) == [at(30), at(40)])
        try await sleepers[30]?.value
        try await sleepers[40]?.value
        #expect(woken == [10, 20, 30, 40])
        #expect(clock.sleeperCount == 0)
    }

    @Test("sleepers with the same deadline all wake, each once")
    func sleepersWithOneDeadline() async throws {
        let clock = ManualClock()
        var sleepers: [Task<Void, any Error>] = []
        for _ in 1...3 {
            sleepers.append(Task { try await clock.sleep(until: at(1_000)) })
        }
        try await clock.waitForSleepers(3)
        #expect(clock.advance(by: .seconds(1)) == [at(1_000), at(1_000), at(1_000)])
        for sleeper in sleepers { try await sleeper.value }
        #expect(clock.advance(by: .seconds(1)).isEmpty)
    }

    @Test("a sleep until a deadline already reached returns at once")
    func aPastDeadlineReturnsAtOnce() async throws {
        let clock = ManualClock()
        clock.advance(to: at(500))
        try await clock.sleep(until: at(200))
        try await clock.sleep(until: at(500))
        try await clock.sleep(for: .zero)
        #expect(clock.sleeperCount == 0)
        #expect(clock.now == at(500))
    }

    @Test("the clock never goes back, and measures from its start")
    func theClockNeverGoesBack() {
        let clock = ManualClock()
        #expect(clock.now == at(0))
        #expect(clock.minimumResolution == .zero)
        clock.advance(to: at(300))
        clock.advance(to: at(100))
        clock.advance(by: .milliseconds(-50))
        #expect(clock.now == at(300))
        clock.advance(by: .milliseconds(50))
        #expect(clock.now == at(350))
        #expect(at(100).duration(to: at(350)) == .milliseconds(250))
        #expect(at(100).advanced(by: .milliseconds(5)) == at(105))
        #expect(at(200).description == "0.2 seconds")
    }

    @Test("waitForSleepers returns once that many tasks sleep, and at once when they do already")
    func waitingForSleepers() async throws {
        let clock = ManualClock()
        try await clock.waitForSleepers(0)
        var waitOver = false
        let waiter = Task {
            try await clock.waitForSleepers(2)
            waitOver = true
            return clock.sleeperCount
        }
        let first = Task { try await clock.sleep(until: at(10)) }
        try await clock.waitForSleepers(1)
        await Task.yield()
        #expect(!waitOver)
        let second = Task { try await clock.sleep(until: at(20)) }
        #expect(try await waiter.value == 2)
        try await clock.waitForSleepers(2)  // already: returns at once

        clock.advance(to: at(20))
        try await first.value
        try await second.value
        #expect(clock.sleeperCount == 0)
    }

    @Test("a cancelled sleep throws CancellationError at once and no longer counts as asleep")
    func cancellingASleep() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(until: at(1_000)) }
        let other = Task { try await clock.sleep(until: at(2_000)) }
        try await clock.waitForSleepers(2)

        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.deadlines == [at(2_000)])

        // Advancing past the cancelled deadline wakes only the other sleeper, once.
        clock.advance(to: at(2_000))
        try await other.value
        #expect(clock.sleeperCount == 0)
    }

    @Test("a sleep in a task cancelled before it sleeps throws without sleeping")
    func cancelledBeforeSleeping() async throws {
        let clock = ManualClock()
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(until: at(1_000))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test("waiting for sleepers throws CancellationError when the waiting task is cancelled")
    func cancellingAWait() async throws {
        let clock = ManualClock()
        let waiter = Task { try await clock.waitForSleepers(1) }
        await Task.yield()
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }

        // The cancelled wait is gone: a sleeper later wakes no one else.
        let sleeper = Task { try await clock.sleep(until: at(10)) }
        try await clock.waitForSleepers(1)
        clock.advance(to: at(10))
        try await sleeper.value
    }

    @Test("sleepers off the main actor, on many tasks at once, all wake")
    func manySleepersOffTheMainActor() async throws {
        let clock = ManualClock()
        try await withThrowingTaskGroup { group in
            for milliseconds in 1...100 {
                group.addTask { @Sendable in try await clock.sleep(until: at(milliseconds)) }
            }
            try await clock.waitForSleepers(100)
            clock.advance(to: at(50))
            for _ in 1...50 { _ = try await group.next() }
            #expect(clock.sleeperCount == 50)
            clock.advance(to: at(100))
            try await group.waitForAll()
        }
        #expect(clock.sleeperCount == 0)
    }
}
