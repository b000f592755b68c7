import Testing

@testable import WeftInitializer
@testable import WeftTUI
@testable import WeftTerminal

@MainActor
@Suite("Splash screen")
struct SplashViewTests {
    @Test("At 80×24: logo, environment, every step with phase and state, progress")
    func large() throws {
        let buffer = render(Fixtures.splash)
        expectChrome(buffer, screen: Fixtures.splash)
        #expect(buffer.contains(Fixtures.logo[0]))
        #expect(buffer.contains("Starting embedded…"))
        let done = try #require(buffer.lines.first { $0.contains("Open history database") })
        #expect(done.contains("✓") && done.contains("pre-sync") && done.contains("12 ms"))
        let running = try #require(buffer.lines.first { $0.contains("Start fact server") })
        #expect(running.contains(Spinner.frame(3, isMonochrome: false)) && running.contains("running"))
        let pending = try #require(buffer.lines.first { $0.contains("Fetch first fact") })
        #expect(pending.contains("post-sync") && pending.contains("pending"))
        #expect(buffer.contains("1/4"))
        let check = try #require(buffer.position(of: "✓"))
        #expect(buffer.style(row: check.row, column: check.column)?.role == .success)
    }

    @Test("The spinner advances with the frame number")
    func animates() {
        var view = Fixtures.splash
        view.steps[1].state = .running(frame: 4)
        let buffer = render(view)
        #expect(buffer.contains(Spinner.frame(4, isMonochrome: false) + " Start fact server"))
        #expect(!buffer.contains(Spinner.frame(3, isMonochrome: false) + " Start fact server"))
    }

    @Test("A failed step shows a cross and 'failed'")
    func failed() throws {
        var view = Fixtures.splash
        view.steps[3].state = .failed
        let line = try #require(render(view).lines.first { $0.contains("Fetch first fact") })
        #expect(line.contains("✗") && line.contains("failed"))
    }

    @Test("A step being retried shows its attempt; a skipped step says so and counts as ended")
    func retryingAndSkipped() throws {
        var view = Fixtures.splash
        view.steps[3].state = .retrying(frame: 0, attempt: 2, of: 3)
        view.steps[1].state = .skipped
        let buffer = render(view)
        let retrying = try #require(buffer.lines.first { $0.contains("Fetch first fact") })
        #expect(retrying.contains("attempt 2/3"))
        let skipped = try #require(buffer.lines.first { $0.contains("Start fact server") })
        #expect(skipped.contains("skipped"))
        #expect(buffer.contains("2/4"))
    }

    @Test("Events drive the splash: a retry shows the attempt of the step's policy, a skip shows skipped")
    func progressFromEvents() throws {
        let fact = InitializationStepInfo(
            id: "fact", title: "Fetch", phase: .graph, index: 0, position: 0, type: .simple, isAsync: true,
            retry: .exponential(attempts: 3))
        var progress = SplashProgress(environment: "embedded", steps: [fact])
        progress.apply(.stepStarted(fact))
        progress.apply(.stepRetrying(fact, attempt: 2, delay: .milliseconds(200), error: CancellationError()))
        #expect(progress.progress(of: fact) == .retrying(attempt: 2, of: 3))
        progress.apply(
            .stepSkipped(InitializationStepTiming(step: fact, startOffset: .zero, duration: .zero, outcome: .skipped)))
        #expect(progress.progress(of: fact) == .skipped)
    }

    @Test("At 60×16 the logo gives way but every step still shows")
    func small() {
        let buffer = render(Fixtures.splash, size: Fixtures.small)
        expectChrome(buffer, screen: Fixtures.splash)
        for step in Fixtures.splash.steps {
            #expect(buffer.contains(step.title))
        }
        #expect(buffer.contains("1/4"))
    }

    @Test("Too many steps for the height keeps the active ones in view")
    func manySteps() {
        let steps = (0..<20).map {
            SplashView.Step(title: "step \($0)", phase: "async", state: $0 < 15 ? .done(milliseconds: $0) : .pending)
        }
        let buffer = render(SplashView(logo: [], environment: "embedded", steps: steps), size: Fixtures.small)
        #expect(buffer.contains("step 15"))
        #expect(buffer.contains("15/20"))
        expectChrome(buffer, screen: Fixtures.splash)
    }

    @Test("Monochrome: no colour roles, ASCII spinner")
    func monochrome() {
        let buffer = render(Fixtures.splash, isMonochrome: true)
        expectChrome(buffer, screen: Fixtures.splash)
        expectNoColor(buffer)
        #expect(buffer.contains(Spinner.frame(3, isMonochrome: true) + " Start fact server"))
    }
}
