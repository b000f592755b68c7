import Foundation
import Testing
import Weft
import WeftInitializer

@testable import FactKit
@testable import WeftApp
@testable import WeftTUI
@testable import WeftTerminal

/// The app's state machine, driven by keys over the real initialization plan: the bundled
/// server on loopback and a real SQLite history in a temporary directory.
@MainActor
@Suite("App model", .timeLimit(.minutes(2)))
struct AppModelTests {
    @Test("The first run shows every planned step on the splash, then the fact on the main screen")
    func splashToMain() async throws {
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        let model = AppModel(options: sandbox.options(), logo: InteractiveApp.logo())
        model.start()
        let progress = try #require(model.splashProgress)
        #expect(progress.environment == "embedded")
        #expect(progress.steps.count == 10)
        let splash = render(model)
        #expect(splash.contains("Starting embedded…"), "\(splash.rendered)")
        #expect(splash.contains("Load settings"))
        #expect(splash.contains("Record the fact in the history"))
        #expect(splash.text(at: 0).hasSuffix("Starting"))

        await model.settle()
        let state = try #require(model.mainState, "stage: \(model.stage.name)")
        #expect(!state.fact.text.isEmpty)
        let main = render(model)
        #expect(main.contains("Cat fact"), "\(main.rendered)")
        #expect(main.contains(String(state.fact.text.prefix(20))))
        #expect(main.contains("seen 1 time · 1 fact in history"))
        #expect(main.contains("environment embedded · fetched in"))
        #expect(main.text(at: 23).contains("n next"))
        #expect(model.runsStarted == 1 && model.runsCompleted == 1)
        let server = try #require(state.result.process.container?.resolve(FactServer.self))
        await model.shutdown()
        #expect(await server.isRunning == false, "quitting stops the embedded server")
    }

    @Test("Mid-run the splash shows finished steps with ✓ and time, running ones with a spinner, and progress")
    func splashMidRun() async throws {
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        let model = AppModel(options: sandbox.options(environment: "slow"), logo: InteractiveApp.logo())
        model.start()
        await model.waitUntil { model in
            guard let progress = model.splashProgress,
                let fetch = progress.steps.first(where: { $0.title == "Fetch the first cat fact" }),
                let server = progress.steps.first(where: { $0.title == "Start the fact server" })
            else { return false }
            if case .done = progress.progress(of: server), progress.progress(of: fetch) == .running { return true }
            return false
        }
        for size in [Fixtures.large, Fixtures.small] {
            let frame1 = render(model, size: size, tick: 1)
            let frame2 = render(model, size: size, tick: 2)
            #expect(frame1.contains("✓ Connect the fact service"), "\(frame1.rendered)")
            #expect(frame1.contains("/10"), "the progress bar counts steps")
            #expect(frame1.contains("running"))
            #expect(frame1.contains("Fetch the first cat fact"))
            #expect(frame1.contains("Starting slow…"))
            #expect(frame1.rendered != frame2.rendered, "the spinner animates from tick to tick")
            #expect(frame1.text(at: size.rows - 1).contains("q quit"))
        }
        // Keys that would start a run elsewhere do nothing here.
        press(model, .char("r"), .char("e"), .enter, .char("n"), .char("d"), .char("x"))
        #expect(model.runsStarted == 1 && model.panel == nil && model.isRunInFlight)

        // q cancels the run and quits cleanly; shutdown waits for the cancelled run.
        #expect(model.handle(.char("q")) == .quit(exitCode: 0))
        await model.shutdown()
        #expect(model.isShutDown)
        #expect(model.runsCompleted == model.runsStarted)
        #expect(model.isOnSplash, "a cancelled run shows no error")
    }

    @Test("Ctrl-C read as a key quits with 130 from any stage")
    func ctrlC() async throws {
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        let model = AppModel(options: sandbox.options())
        model.start()
        #expect(model.handle(.ctrlC) == .quit(exitCode: 130))
        await model.shutdown()
        #expect(!model.isRunInFlight)
    }

    @Test("broken fails on the error screen; e, then embedded, re-initializes into the main screen")
    func brokenThenEmbedded() async throws {
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        let log = EffectLog()
        let model = AppModel(options: sandbox.options(environment: "broken"), effects: log.effects)
        model.start()
        await model.settle()
        let error = try #require(model.errorState, "stage: \(model.stage.name)")
        #expect(error.stepTitle == "Fetch the first cat fact")
        #expect(error.phase == "async")
        #expect(error.hint.contains("HTTP 500"))
        for size in [Fixtures.large, Fixtures.small] {
            let screen = render(model, size: size)
            #expect(screen.contains("Initialization failed"), "\(screen.rendered)")
            #expect(screen.contains("✗ Fetch the first cat fact"))
            #expect(screen.contains("phase async · failed after"))
            #expect(screen.contains("HTTP 500"))
            #expect(screen.contains("Hint:"))
            #expect(screen.text(at: 0).contains("broken"))
            #expect(screen.text(at: size.rows - 1).contains("r retry"))
        }
        #expect(
            model.handle(.char("q")) == .quit(exitCode: 1), "quitting from the error screen exits 1, as plain mode does"
        )

        press(model, .char("e"))
        let menu = try #require(model.menu)
        #expect(menu.current == "broken")
        #expect(menu.selected?.name == "broken", "the menu opens on the current environment")
        let menuScreen = render(model)
        #expect(menuScreen.contains("Choose environment"), "\(menuScreen.rendered)")
        #expect(menuScreen.contains("› ● broken"))
        #expect(menuScreen.contains("Bundled server, no network."))

        press(model, .char("k"), .enter)
        #expect(model.isOnSplash && model.isRunInFlight && model.panel == nil)
        #expect(model.splashProgress?.environment == "embedded")
        #expect(
            model.splashProgress?.steps.count == 9, "a repeat runs only the repeatable steps (all but Load settings)")
        await model.settle()
        let main = try #require(model.mainState, "stage: \(model.stage.name)")
        #expect(main.dependencies.environment.name == "embedded")
        #expect(render(model).contains("Cat fact"))
        #expect(log.runsStarted == 2 && log.peakRunsInFlight == 1)
        #expect(model.handle(.char("q")) == .quit(exitCode: 0), "quitting from the main screen exits 0")
        await model.shutdown()
    }

    @Test("r on the error screen retries the same environment and shows the error again")
    func retry() async throws {
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        let model = AppModel(options: sandbox.options(environment: "broken"))
        model.start()
        await model.settle()
        let first = try #require(model.errorState?.failure)
        press(model, .char("r"))
        #expect(model.isOnSplash)
        #expect(model.splashProgress?.environment == "broken")
        press(model, .char("r"), .char("r"))
        #expect(model.runsStarted == 2, "keys during the retry start nothing")
        await model.settle()
        let second = try #require(model.errorState?.failure, "stage: \(model.stage.name)")
        #expect(second.process !== first.process)
        #expect(second.failedStep.title == "Fetch the first cat fact")
        #expect(second.process.requestedEnvironment == "broken")
        #expect(model.runsStarted == 2 && model.runsCompleted == 2)
        await model.shutdown()
    }

    @Test("Selecting an environment from the main screen re-initializes into it without a new process")
    func switchFromMain() async throws {
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        let model = AppModel(options: sandbox.options())
        model.start()
        await model.settle()
        let first = try #require(model.mainState)
        let firstServer = try await #require(first.result.process.container).resolveAsync(FactServer.self)
        let database = try #require(first.result.process.history)
        press(model, .char("e"), .down, .enter)
        #expect(model.splashProgress?.environment == "broken")
        await model.settle()
        let error = try #require(model.errorState)
        #expect(error.environment == "broken")
        #expect(await firstServer.isRunning == false, "the repeat stopped the previous server")
        #expect(error.failure?.process.database === database, "the database carried over")
        await model.shutdown()
        // The failure may end the run before the server step ended (the run abandons steps
        // still running); the run's container, and every server in it, is shut down all the same.
        let failed = try #require(error.failure)
        let container = try #require(failed.process.container)
        #expect(throws: ResolutionError.self, "the failed run's container was shut down") {
            try container.require(Environment.self)
        }
    }

    @Test("The menu moves with j/k and arrows, stops at the ends, and Esc cancels without a run")
    func menuNavigation() async throws {
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        let model = AppModel(options: sandbox.options())
        model.start()
        await model.settle()
        press(model, .char("e"))
        #expect(model.menu?.selectedIndex == 0)
        press(model, .char("j"))
        #expect(model.menu?.selected?.name == "broken")
        press(model, .down)
        #expect(model.menu?.selected?.name == "slow")
        press(model, .down, .char("j"))
        #expect(model.menu?.selected?.name == "slow", "stops at the last row")
        press(model, .up)
        #expect(model.menu?.selected?.name == "broken")
        press(model, .char("k"), .char("k"), .up)
        #expect(model.menu?.selected?.name == "embedded", "stops at the first row")
        let screen = render(model, size: Fixtures.small)
        #expect(screen.contains("● embedded"), "\(screen.rendered)")
        press(model, .escape)
        #expect(model.panel == nil && model.isOnMain && model.runsStarted == 1)
        await model.shutdown()
    }

    @Test("? shows every key of the current screen; Esc, ? and q close it without quitting")
    func help() async throws {
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        let model = AppModel(options: sandbox.options())
        model.start()
        press(model, .char("?"))
        #expect(model.helpEntries.map(\.key).contains("Ctrl-C"))
        #expect(render(model).contains("Keys · Starting"))
        press(model, .escape)
        await model.settle()
        #expect(model.isOnMain)

        for closer in [Key.escape, .char("?"), .char("q")] {
            press(model, .char("?"))
            #expect(model.isHelpVisible)
            let screen = render(model)
            #expect(screen.contains("Keys · Fact"), "\(screen.rendered)")
            for key in ["n", "e", "d", "?", "q"] {
                #expect(model.helpEntries.contains { $0.key == key }, "help lists \(key)")
            }
            #expect(screen.contains("next fact"))
            #expect(screen.text(at: 23).contains("Ctrl-C quit"))
            press(model, .char("n"), .char("e"))
            #expect(model.panel == nil && model.mainState?.isFetching == false, "keys under help go to help")
            press(model, closer)
            #expect(!model.isHelpVisible)
        }
        press(model, .char("e"), .char("?"))
        #expect(render(model).contains("Keys · Environments"))
        #expect(model.helpEntries.contains { $0.key == "Enter" })
        press(model, .escape, .escape)
        #expect(model.panel == nil)
        await model.shutdown()
    }

    @Test("d shows the container's registrations and the last run's timeline; on the error screen, the failed run's")
    func diagnostics() async throws {
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        let model = AppModel(options: sandbox.options(environment: "broken"))
        model.start()
        await model.settle()
        press(model, .char("d"))
        #expect(model.panel == .diagnostics)
        var screen = render(model)
        #expect(screen.contains("Diagnostics"), "\(screen.rendered)")
        #expect(screen.contains("FactServer"))
        #expect(screen.contains("singleton"))
        #expect(screen.contains("✓ yes"))
        #expect(screen.contains("Fetch the first cat fact"))
        #expect(screen.contains("Load settings"), "the first run's timeline lists every step")
        let failed = model.diagnosticsView.timeline.filter(\.isFailure).map(\.label)
        #expect(failed.contains("Fetch the first cat fact"))
        press(model, .char("d"))
        #expect(model.panel == nil && model.isOnError)

        press(model, .char("e"), .char("k"), .enter)
        await model.settle()
        press(model, .char("d"))
        let view = model.diagnosticsView
        #expect(view.environment == "embedded")
        let resolved = Set(view.registrations.filter(\.isResolved).map(\.name))
        #expect(resolved.isSuperset(of: ["HistoryDatabase", "FactServer", "FactService", "RunHTTPClient"]))
        #expect(view.timeline.count == 9 && view.timeline.allSatisfy { !$0.isFailure })
        #expect(view.timeline.contains { $0.isCritical }, "the critical chain is marked")
        let asyncEntries = view.timeline.filter {
            ["Open the history database", "Start the fact server", "Create the HTTP client"].contains($0.label)
        }
        // The three start together, as soon as the services are registered: none waits for
        // another (their start times differ only by the scheduler's launching them in turn).
        #expect(asyncEntries.count == 3)
        let report = try #require(model.mainState).result.report
        let parallel = report.steps.filter { ["history", "server", "client"].contains($0.step.id) }
        #expect(parallel.count == 3 && parallel.allSatisfy { $0.heldBy == "services" && $0.step.after == ["services"] })
        screen = render(model, size: Fixtures.small)
        #expect(screen.contains("Last run"), "\(screen.rendered)")
        press(model, .escape)
        #expect(model.panel == nil && model.isOnMain)
        await model.shutdown()
    }

    @Test("n fetches the next fact through the repository, once at a time, without re-initializing")
    func nextFact() async throws {
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        let log = EffectLog()
        let model = AppModel(options: sandbox.options(), effects: log.effects)
        model.start()
        await model.settle()
        let before = try #require(model.mainState).fact
        press(model, .char("n"), .char("n"), .char("n"))
        #expect(model.mainState?.isFetching == true)
        #expect(render(model).contains("fetching the next fact…"))
        await model.settle()
        let after = try #require(model.mainState)
        #expect(!after.isFetching && after.notice == nil)
        #expect(log.fetches == 1, "n while fetching starts no second fetch")
        #expect(after.fact.fetchedAt > before.fetchedAt)
        #expect(
            (after.fact.timesSeen ?? 0) + (after.fact.factsStored ?? 0) == 3, "one more fact recorded in the history")
        #expect(model.runsStarted == 1, "no re-initialization")
        await model.shutdown()
    }

    @Test("A failing fetch shows a notice on the main screen instead of crashing")
    func fetchFailure() async throws {
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        let model = AppModel(options: sandbox.options())
        model.start()
        await model.settle()
        let state = try #require(model.mainState)
        await state.dependencies.shutdown()  // the embedded server goes away
        press(model, .char("n"))
        await model.settle()
        let after = try #require(model.mainState)
        #expect(after.fact == state.fact)
        let notice = try #require(after.notice)
        #expect(notice.contains("Next fact failed"))
        let screen = render(model)
        #expect(screen.contains("✗ Next fact failed"), "\(screen.rendered)")
        press(model, .char("n"))
        #expect(model.mainState?.notice == nil, "a new fetch clears the notice")
        await model.shutdown()
    }

    @Test("Every stage and panel fits 80×24, 60×16 and compact 40×12; below 40×12 the too-small notice")
    func sizes() async throws {
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        let model = AppModel(options: sandbox.options(), logo: InteractiveApp.logo())
        model.start()
        func check(_ name: String) {
            for size in [Fixtures.large, Fixtures.small, TerminalSize(rows: 12, columns: 50), Fixtures.compact] {
                let buffer = render(model, size: size)
                if model.isHelpVisible {
                    #expect(buffer.text(at: size.rows - 1).contains("Ctrl-C quit"))
                } else {
                    expectChrome(buffer, screen: model.frame(tick: 0).screen)
                }
                #expect(!buffer.contains("Terminal too small"), "\(name) at \(size)")
            }
            for size in [Fixtures.tooSmall, TerminalSize(rows: 11, columns: 50), TerminalSize(rows: 0, columns: 0)] {
                let buffer = render(model, size: size)
                if size.rows > 2 {
                    #expect(buffer.contains("Terminal too small"), "\(name) at \(size):\n\(buffer.rendered)")
                    #expect(buffer.rendered.contains("40×12"))
                }
            }
            let mono = render(model, isMonochrome: true)
            expectNoColor(mono)
        }
        check("splash")
        await model.settle()
        check("main")
        press(model, .char("?"))
        check("main + help")
        press(model, .escape, .char("d"))
        check("diagnostics")
        press(model, .escape, .char("e"))
        check("menu")
        press(model, .char("j"), .enter)
        await model.settle()
        check("error")
        await model.shutdown()
    }
}
