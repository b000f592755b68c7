import Testing
import WeftApp
import WeftInitializer
import WeftTestSupport
import WeftTesting

@testable import WeftTUI
@testable import WeftTerminal

@MainActor
@Suite("Error screen: a start-up that ran out of time")
struct StartupDeadlineScreenTests {
    @Test("The box says the start-up ran out of time; the detail line names the deadline")
    func view() {
        var view = Fixtures.error
        view.stepTitle = "Fetch the first cat fact"
        view.phase = "async"
        view.deadlineMilliseconds = 2_500
        #expect(view.heading == "Start-up ran out of time")
        #expect(view.detailLine == "phase async · still going at the 2.5 s deadline")
        view.attempt = 2
        #expect(view.detailLine == "phase async · still going at the 2.5 s deadline · attempt 2")
        for size in [Fixtures.large, Fixtures.small] {
            let buffer = render(view, size: size)
            expectChrome(buffer, screen: view)
            #expect(buffer.contains("┌─ Start-up ran out of time "), "\(buffer.rendered)")
            #expect(buffer.contains("✗ Fetch the first cat fact"))
            #expect(!buffer.contains("Initialization failed"))
        }
        #expect(Fixtures.error.heading == "Initialization failed", "a failed step keeps its heading")
    }

    @Test(
        "A 4 s deadline against a server answering after 121 s: the screen names the step and says what to try; r keeps the deadline",
        .timeLimit(.minutes(2)))
    func appModel() async throws {
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        var options = sandbox.options(environment: "slow")
        // On a clock the test moves, once only the slow fetch is going (see deadlineEffects).
        options.startupDeadline = .seconds(4)  // on the manual clock
        let model = AppModel(
            options: options, effects: Self.deadlineEffects(clock: ManualClock(), deadline: .seconds(4)))
        model.start()
        await model.settle()
        let error = try #require(model.errorState, "stage: \(model.stage.name)")
        #expect(error.deadline == .seconds(4))
        #expect(error.stepTitle == "Fetch the first cat fact")
        #expect(
            error.message.hasPrefix("Start-up did not finish within its 4.0 s deadline: 'Fetch the first cat fact'"))
        #expect(error.hint.hasPrefix("\"Fetch the first cat fact\" was still going at the deadline."))
        #expect(error.hint.contains("--startup-deadline") && error.hint.contains("Retry (r)"))
        #expect(error.hint.contains("pick another environment (e)"))
        let screen = render(model)
        #expect(screen.contains("Start-up ran out of time"), "\(screen.rendered)")
        #expect(screen.contains("✗ Fetch the first cat fact"))
        #expect(screen.contains("phase async · still going at the 4.0 s deadline"))
        #expect(screen.contains("4.0 s deadline: 'Fetch the"), "\(screen.rendered)")
        #expect(screen.contains("first cat fact' was still going after"))
        #expect(screen.contains("Hint:"))
        #expect(model.handle(.char("q")) == .quit(exitCode: 1), "quitting from it exits 1, as plain mode does")

        press(model, .char("r"))
        await model.settle()
        let retried = try #require(model.errorState, "a retry keeps the deadline: stage \(model.stage.name)")
        #expect(retried.deadline == .seconds(4) && retried.attempt == 2)
        await model.shutdown()
    }

    /// The steps that end while the fetch waits on the slow server, in a first run and in a
    /// repeat alike (the steps before them end first).
    static let stepsBeforeTheDeadline: Set<String> = ["history", "server", "client", "service"]

    /// The app's effects, with every run on `clock`: once the run's fetch has started and every
    /// other step that can has ended, the clock moves on by `deadline`, to the run's deadline
    /// (the clock stands still from the run's start until then). The fetch, and it alone, is
    /// still going there, however long a busy machine took to get that far.
    static func deadlineEffects(clock: ManualClock, deadline: Duration) -> AppEffects {
        AppEffects(
            makeInitializer: { options in
                try AppPlan.makeInitializer(options: options, clock: InitializationClock(clock))
            },
            run: { initializer in
                let events = initializer.events()
                let mover = Task {
                    await awaitOnlyStepGoing("fact", after: stepsBeforeTheDeadline, in: events)
                    clock.advance(by: deadline)
                }
                defer { mover.cancel() }
                return try await AppEffects.live.run(initializer)
            },
            fetchNextFact: AppEffects.live.fetchNextFact)
    }
}
