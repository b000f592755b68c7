import Foundation
import Testing
import WeftTestSupport
import WeftTesting

@testable import FactKit
@testable import WeftApp
@testable import WeftInitializer

@Suite("startupDeadline: the setting, and a start-up that runs out of time", .timeLimit(.minutes(2)))
struct StartupDeadlineTests {
    /// The deadline of the runs that miss it, on a clock the test moves (``reachDeadline(_:on:)``):
    /// it passes when the test says, once every step but the slow fetch has ended, however
    /// long a busy machine takes to get there. The server answers only after 61 s of wall clock.
    static let deadline = Duration.seconds(6)  // on the manual clock

    /// The steps that end while the fetch waits on the slow server: all but the fetch and the
    /// recording after it.
    static let stepsBeforeTheDeadline: Set<String> = [
        "settings", "environment", "services", "history", "server", "client", "service",
    ]

    /// Waits on `events` until the fetch has started and every other step that can has ended,
    /// then moves `clock` to the deadline: the fetch, and it alone, is still going there. (The
    /// deadline's timer need not be asleep yet: it sleeps until an instant the clock has
    /// passed, and wakes at once.)
    static func reachDeadline(_ events: AsyncStream<InitializationEvent>, on clock: ManualClock) async {
        await awaitOnlyStepGoing("fact", after: stepsBeforeTheDeadline, in: events)
        clock.advance(to: ManualClock.Instant(offset: deadline))
    }

    /// Runs a plain session in the slow environment with the deadline on a manual clock, moved
    /// to the deadline once only the fetch is going.
    @MainActor
    private static func runPlainToTheDeadline(_ folder: borrowing TemporaryFolder, format: PlainFormat) async throws
        -> (WeftApp.ExitStatus, LineRecorder)
    {
        let clock = ManualClock()
        let options = try slowOptions(folder, deadline: deadline)
        let initializer = try AppPlan.makeInitializer(options: options, clock: InitializationClock(clock))
        let events = initializer.events()
        let mover = Task { await reachDeadline(events, on: clock) }
        let recorder = LineRecorder()
        let status = await PlainSession(options: options, reporter: PlainReporter(format: format, sink: recorder.sink))
            .run(initializer)
        await mover.value
        return (status, recorder)
    }

    /// One environment, `slow`: the embedded server answering only after 61 s (its 60 s
    /// timeout and one more), on the wall clock; no test here waits that long.
    static let slowEnvironment =
        #"{"environments": [{"name": "slow", "description": "answers too late", "source": "embedded", "fault": "slow", "timeoutSeconds": 60}]}"#

    static let fetch = InitializationStepInfo(
        id: "fact", title: "Fetch the first cat fact", phase: .graph, index: 6, position: 6, type: .repeatable,
        isAsync: true)

    /// Options for the slow environment with `deadline`, in `folder`.
    private static func slowOptions(_ folder: borrowing TemporaryFolder, deadline: Duration?) throws -> AppOptions {
        var options = folder.options()
        options.environmentsFile = try folder.environmentsFile(slowEnvironment)
        options.startupDeadline = deadline
        return options
    }

    // MARK: - The setting

    @Test("By default there is no deadline; weft config says none")
    func noDeadlineByDefault() throws {
        try withConfig(nil) { _, environment in
            let settings = try AppSettings(environment: environment)
            #expect(settings.startupDeadline.value == nil && settings.startupDeadline.layer == .builtIn)
            #expect(settings.startupDeadlineDuration == nil && settings.options.startupDeadline == nil)
            #expect(AppSettings.keys.contains("startupDeadline"))
            let line = try #require(settings.report.first { $0.hasPrefix("startupDeadline") })
            #expect(line.contains("(none)") && line.contains("[default]"))
            #expect(line.contains("--startup-deadline") && line.contains("WEFT_STARTUP_DEADLINE"))
        }
    }

    @Test("Flag beats WEFT_STARTUP_DEADLINE beats config.json (a string or a number); decimals allowed")
    func layers() throws {
        try withConfig(#"{"startupDeadline": 30}"#) { _, environment in
            let fromConfig = try AppSettings(environment: environment)
            #expect(fromConfig.startupDeadline.value == "30" && fromConfig.startupDeadline.layer == .configFile)
            #expect(fromConfig.options.startupDeadline == .seconds(30))

            var variables = environment
            variables["WEFT_STARTUP_DEADLINE"] = "2.5"
            let fromVariable = try AppSettings(environment: variables)
            #expect(fromVariable.startupDeadline.layer == .environmentVariable)
            #expect(fromVariable.options.startupDeadline == .milliseconds(2_500))

            let fromFlag = try AppSettings(flags: .init(startupDeadline: "0.25"), environment: variables)
            #expect(fromFlag.startupDeadline.value == "0.25" && fromFlag.startupDeadline.layer == .flag)
            #expect(fromFlag.options.startupDeadline == .milliseconds(250))
            #expect(fromFlag.report.contains { $0.hasPrefix("startupDeadline") && $0.contains("0.25  [flag]") })
        }
        try withConfig(#"{"startupDeadline": "12.5"}"#) { _, environment in
            let settings = try AppSettings(environment: environment)
            #expect(settings.options.startupDeadline == .milliseconds(12_500))
        }
    }

    @Test(
        "Anything but a positive number of seconds is an error naming the setting, the value and the layer",
        arguments: ["0", "0.0", "-1", "abc", "", "1e3", "0x10", "nan", "inf", "1.2.3", " 5", "5s", "86401", "٣"])
    func invalidFlag(_ value: String) throws {
        try withConfig(nil) { _, environment in
            #expect(
                throws: SettingsError.invalidValue(
                    key: "startupDeadline", value: value, layer: .flag, expected: AppSettings.deadlineExpectation)
            ) {
                try AppSettings(flags: .init(startupDeadline: value), environment: environment)
            }
        }
    }

    @Test("A bad WEFT_STARTUP_DEADLINE or config.json value names its layer; the message says what is expected")
    func invalidLayers() throws {
        try withConfig(nil) { _, environment in
            var variables = environment
            variables["WEFT_STARTUP_DEADLINE"] = "soon"
            do throws(SettingsError) {
                _ = try AppSettings(environment: variables)
                Issue.record("accepted \"soon\"")
            } catch {
                #expect(
                    error
                        == .invalidValue(
                            key: "startupDeadline", value: "soon", layer: .environmentVariable,
                            expected: AppSettings.deadlineExpectation))
                #expect(error.description.contains("environment variable layer"))
                #expect(error.description.contains("positive number of seconds"))
            }
        }
        try withConfig(#"{"startupDeadline": -3}"#) { _, environment in
            #expect(
                throws: SettingsError.invalidValue(
                    key: "startupDeadline", value: "-3", layer: .configFile, expected: AppSettings.deadlineExpectation)
            ) {
                try AppSettings(environment: environment)
            }
        }
        try withConfig(#"{"startupDeadline": true}"#) { directory, environment in
            #expect(
                throws: SettingsError.invalidConfig(
                    path: directory.appendingPathComponent("weft/config.json").path,
                    problem: "startupDeadline must be a number of seconds (line 1)")
            ) {
                try AppSettings(environment: environment)
            }
        }
    }

    @Test("Seconds parse to milliseconds, rounding up, within a day")
    func parsing() {
        #expect(AppSettings.deadline(seconds: "1") == .seconds(1))
        #expect(AppSettings.deadline(seconds: "2.5") == .milliseconds(2_500))
        #expect(AppSettings.deadline(seconds: ".5") == .milliseconds(500))
        #expect(AppSettings.deadline(seconds: "0.0001") == .milliseconds(1))
        #expect(AppSettings.deadline(seconds: "86400") == .seconds(86_400))
        #expect(AppSettings.deadline(seconds: "86400.5") == nil)
    }

    @Test("The app's initializer gets the options' deadline")
    @MainActor
    func initializerDeadline() throws {
        var options = AppOptions()
        options.startupDeadline = .seconds(3)  // handed on, never run
        #expect(try AppPlan.makeInitializer(options: options).deadline == .seconds(3))
        #expect(try AppPlan.makeInitializer(options: AppOptions()).deadline == nil)
    }

    // MARK: - A start-up that runs out of time

    @Test("Plain text: a 6 s deadline against a server answering after 61 s stops at 6 s naming the fetch; exit 1")
    @MainActor
    func plainText() async throws {
        let folder = try TemporaryFolder()
        let (status, lines) = try await Self.runPlainToTheDeadline(folder, format: .text)
        #expect(status == .initializationFailed)
        #expect(lines.output.contains("[async] - Fetch the first cat fact (cancelled after 6000 ms)"), "\(lines.all)")
        #expect(!lines.output.contains { $0.contains("interrupted") || $0.contains("✗") }, "\(lines.all)")
        let errors = lines.errors
        #expect(errors.count == 3, "\(errors)")
        #expect(
            errors.first?.hasPrefix(
                #"weft: could not start in environment "slow": the 6.0 s start-up deadline passed while step "Fetch the first cat fact" (async phase) was still going; stopped after 6000 ms"#
            ) == true, "\(errors)")
        #expect(
            errors.dropFirst().first?.hasPrefix(
                "  error: Start-up did not finish within its 6.0 s deadline: 'Fetch the first cat fact' was still going after 6.0 s"
            ) == true, "\(errors)")
        let hint = try #require(errors.last)
        #expect(hint.hasPrefix(#"  hint:  "Fetch the first cat fact" was still going at the deadline."#))
        #expect(hint.contains("--startup-deadline SECONDS") && hint.contains("--env NAME"))
    }

    @Test(
        "JSON: the failed object has a deadline object: its ms and the pending steps with id, step, goingForMs, attempt"
    )
    @MainActor
    func json() async throws {
        let folder = try TemporaryFolder()
        let (status, lines) = try await Self.runPlainToTheDeadline(folder, format: .json)
        #expect(status == .initializationFailed)
        #expect(lines.errors.isEmpty, "\(lines.errors)")
        let objects = try lines.output.map(jsonObject)
        let cancelled = try #require(objects.first { $0["event"] as? String == "stepCancelled" })
        #expect(cancelled["step"] as? String == "Fetch the first cat fact")
        let failed = try #require(objects.last)
        #expect(failed["event"] as? String == "failed")
        #expect(failed["step"] as? String == "Fetch the first cat fact")
        #expect(failed["cancelled"] as? Bool == false)
        #expect((failed["error"] as? String)?.hasPrefix("Start-up did not finish within its 6.0 s deadline") == true)
        #expect((failed["hint"] as? String)?.contains("--startup-deadline") == true)
        let deadline = try #require(failed["deadline"] as? [String: Any], "\(failed)")
        #expect(deadline["ms"] as? Int == 6_000)
        let pending = try #require(deadline["pending"] as? [[String: Any]])
        // The fetch held it up, alone: the test moved the clock once every other step had ended.
        #expect(pending.count == 1, "\(pending)")
        let step = try #require(pending.first)
        #expect(step["id"] as? String == "fact")
        #expect(step["step"] as? String == "Fetch the first cat fact")
        #expect(step["phase"] as? String == "async")
        #expect(step["attempt"] as? Int == 1)
        // It started at the clock's start, which stood still until the deadline.
        #expect(step["goingForMs"] as? Int == 6_000)
    }

    @Test("A run without a deadline has no deadline object")
    func noDeadlineRecord() throws {
        let recorder = LineRecorder()
        // A failure's figures, as reported; nothing runs.
        let failure = PlainFailure(
            step: Self.fetch,
            error: InitializationStepTimeoutError(stepTitle: "Fetch", timeout: .seconds(1)), elapsed: .seconds(1),
            environment: nil)
        #expect(failure.deadline == nil)
        PlainReporter(format: .json, sink: recorder.sink).report(failure)
        let object = try jsonObject(try #require(recorder.output.first))
        #expect(object["deadline"] == nil)
    }

    @Test("The advice: what happened, the step that held it up, and what to try")
    func advice() {
        let fetch = Self.fetch
        let error = InitializationDeadlineExceeded(
            deadline: .seconds(30), pending: [.init(step: fetch, goingFor: .seconds(29.9), attempt: 3)], nextStep: nil)
        #expect(
            FailureAdvice.deadlineSummary(for: error)
                == #"Start-up ran out of time (30.0 s deadline): "Fetch the first cat fact" held it up"#)
        #expect(FailureAdvice.deadlineSummary(for: CancellationError()) == nil)
        let hint = FailureAdvice.hint(for: error, environment: nil)
        #expect(
            hint == #""Fetch the first cat fact" was still going at the deadline. "#
                + "Allow longer with --startup-deadline SECONDS (or WEFT_STARTUP_DEADLINE, or startupDeadline in "
                + "config.json), or choose another environment with --env NAME.")
        #expect(ExitStatus(failingWith: error) == .initializationFailed)

        let between = InitializationDeadlineExceeded(deadline: .milliseconds(2_500), pending: [], nextStep: fetch)
        #expect(
            FailureAdvice.deadlineSummary(for: between)
                == #"Start-up ran out of time (2.5 s deadline), before "Fetch the first cat fact" started"#)
        #expect(FailureAdvice.hint(for: between, environment: nil).contains("--startup-deadline"))
    }

    // MARK: - weft startup

    @Test("weft startup: a missed deadline reads as such, not as a failed step; its JSON outcome is missedDeadline")
    @MainActor
    func startupAnalysisDeadline() async throws {
        let folder = try TemporaryFolder()
        let clock = ManualClock()
        let initializer = try AppPlan.makeInitializer(
            options: try Self.slowOptions(folder, deadline: Self.deadline), clock: InitializationClock(clock))
        let mover = Task { [events = initializer.events()] in await Self.reachDeadline(events, on: clock) }
        defer { mover.cancel() }
        do {
            let result = try await initializer.run()
            await result.container.shutdown()
            Issue.record("the slow start-up finished within its deadline")
        } catch let error as InitializationFailure<AppProcess> {
            let (analysis, headline) = await Self.analysis(of: error)
            #expect(
                headline
                    == #"weft failed to start in environment "slow": it ran out of time at its 6.0 s deadline; "Fetch the first cat fact" held it up"#
            )
            #expect(!analysis.text.contains("\" failed"))
            let json = try jsonObject(analysis.json)
            #expect(json["outcome"] as? String == "missedDeadline")
            #expect(json["deadlineMs"] as? Double == 6_000)
            #expect(json["failedStep"] as? String == "fact")
            #expect(json["elapsedMs"] as? Double == 6_000)  // on the manual clock, which the test moved once
        }
    }

    /// What `weft startup` makes of `failure` in the slow environment, and its first line; the
    /// failed start-up's services are shut down.
    @MainActor
    private static func analysis(of failure: InitializationFailure<AppProcess>) async -> (StartupAnalysis, String) {
        let analysis = StartupAnalysis(
            report: failure.report, environment: "slow", failedStep: failure.failedStep,
            cancelled: failure.isCancellation)
        await failure.process.shutdown()
        return (analysis, analysis.text.split(separator: "\n").first.map(String.init) ?? "")
    }

    @Test("weft startup: a cancelled run reads interrupted, outcome cancelled, not failed")
    @MainActor
    func startupAnalysisCancelled() async throws {
        let folder = try TemporaryFolder()
        let initializer = try AppPlan.makeInitializer(options: try Self.slowOptions(folder, deadline: nil))
        let events = initializer.events()
        let run = Task { try await initializer.run() }
        for await event in events {
            if case .stepStarted(let step) = event, step.id == "fact" { break }
        }
        run.cancel()
        do {
            let result = try await run.value
            await result.container.shutdown()
            Issue.record("the cancelled start-up finished")
        } catch let failure as InitializationFailure<AppProcess> {
            let (analysis, headline) = await Self.analysis(of: failure)
            #expect(headline.hasPrefix(#"weft's start-up in environment "slow" was interrupted after "#), "\(headline)")
            // It names the step it was in: the first in plan order of those it cancelled (the
            // history's opening too, when a slow machine has not finished it yet).
            #expect(failure.report.cancelledSteps.contains { $0.id == "fact" })
            #expect(headline.hasSuffix(", during \"\(failure.failedStep.title)\""), "\(headline)")
            #expect(!analysis.text.contains("\" failed"))
            #expect(try jsonObject(analysis.json)["outcome"] as? String == "cancelled")
        }
    }

    @Test("weft startup: durations of a second or more are in milliseconds, not tenths of them")
    func analysisMilliseconds() {
        #expect(StartupAnalysis.format(.milliseconds(1_250)) == "1.25 s")
        #expect(StartupAnalysis.format(.milliseconds(84)) == "84 ms")
    }
}
