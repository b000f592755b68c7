import Testing
import WeftApp
import WeftInitializer

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
        "A 4 s deadline against a server answering after 30 s: the screen names the step and says what to try; r keeps the deadline"
    )
    func appModel() async throws {
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        var options = sandbox.options(environment: "slow")
        // Long enough for every step but the slow fetch, even with the whole suite running in
        // parallel on 2 cores (2 s was not, once in a while).
        options.startupDeadline = .seconds(4)
        let model = AppModel(options: options)
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
}
