import Foundation
import Testing

@testable import FactKit
@testable import WeftApp
@testable import WeftInitializer

@MainActor
@Suite("Plain and JSON-lines reporting")
struct PlainReporterTests {
    static let plan = [
        ("sync", "Load settings"), ("sync", "Choose the environment"), ("sync", "Register services"),
        ("async", "Start the fact server"), ("async", "Open the history database"), ("async", "Create the HTTP client"),
        ("async", "Connect the fact service"), ("async", "Fetch the first cat fact"),
        ("async", "Record the fact in the history"),
        ("async", "Check service health"),
    ]

    @Test("An embedded run prints a ✓ line per step, then the fact and its history, and exits 0")
    func embeddedText() async throws {
        let folder = try TemporaryFolder()
        let (status, lines) = await runPlain(folder.options(), format: .text)
        #expect(status == .success)
        #expect(lines.errors.isEmpty)
        let output = lines.output
        try #require(output.count == Self.plan.count + 2)
        let stepLines = output.prefix(Self.plan.count)
        for (phase, title) in Self.plan {
            let line = stepLines.first { $0.hasPrefix("[\(phase)] ✓ \(title) (") }
            #expect(line?.hasSuffix(" ms)") == true, "no ✓ line for \(title) in \(output)")
        }
        // The sync steps come first (each needs the one before), the fact after the client.
        let titles = stepLines.map { $0.drop { $0 != " " }.dropFirst(3) }
        #expect(
            titles.prefix(3).allSatisfy { $0.hasPrefix("Load") || $0.hasPrefix("Choose") || $0.hasPrefix("Register") })
        let index = { (title: String) in titles.firstIndex { $0.hasPrefix(title) } ?? -1 }
        #expect(index("Create the HTTP client") < index("Fetch the first cat fact"))
        #expect(index("Fetch the first cat fact") < index("Record the fact in the history"))
        #expect(output[Self.plan.count].hasPrefix("fact: "))
        #expect(output[Self.plan.count].count > "fact: ".count)
        let summary = output[Self.plan.count + 1]
        #expect(summary.hasPrefix("environment: embedded · "))
        #expect(summary.hasSuffix(" ms · seen 1 time · 1 fact in history"))
        #expect(!lines.all.contains { $0.text.contains("\u{1B}") })
    }

    @Test("A second run against the same history counts the facts it holds")
    func historyCounts() async throws {
        let folder = try TemporaryFolder()
        _ = await runPlain(folder.options(), format: .text)
        let (status, lines) = await runPlain(folder.options(), format: .text)
        #expect(status == .success)
        let summary = try #require(lines.output.last)
        // Either the same fact again, or a second one: never a history that forgot the first run.
        #expect(
            summary.hasSuffix(" · seen 2 times · 1 fact in history")
                || summary.hasSuffix(" · seen 1 time · 2 facts in history"),
            "\(summary)")
    }

    @Test("A broken run prints ✗ for the failed step, then step, phase, error and hint on standard error")
    func brokenText() async throws {
        let folder = try TemporaryFolder()
        let (status, lines) = await runPlain(folder.options(environment: "broken"), format: .text)
        #expect(status == .initializationFailed)
        #expect(lines.output.contains { $0.hasPrefix("[async] ✗ Fetch the first cat fact (") })
        #expect(!lines.output.contains { $0.hasPrefix("fact:") })
        let errors = lines.errors
        try #require(errors.count == 3)
        #expect(
            errors[0].hasPrefix(
                #"weft: could not start in environment "broken": step "Fetch the first cat fact" (async phase) failed after "#
            ))
        #expect(errors[1].hasPrefix("  error: ") && errors[1].contains("HTTP 500"))
        #expect(
            errors[2]
                == "  hint:  The server is failing (HTTP 500). Retry later or choose another environment with --env NAME."
        )
    }

    @Test("An unknown environment names the known ones and exits 2")
    func unknownEnvironment() async throws {
        let folder = try TemporaryFolder()
        let (status, lines) = await runPlain(folder.options(environment: "moon"), format: .text)
        #expect(status == .usageError)
        #expect(lines.output.last?.hasPrefix("[sync] ✗ Choose the environment (") == true)
        #expect(
            lines.errors.contains { $0.contains(#"unknown environment "moon""#) && $0.contains("embedded, staging") })
        #expect(
            lines.errors.last
                == "  hint:  Choose one of the known environments with --env NAME, or leave --env out to use the first."
        )
    }

    @Test("JSON: every line is one JSON object; steps have step, phase and ms; the run ends with the fact")
    func embeddedJSON() async throws {
        let folder = try TemporaryFolder()
        let (status, lines) = await runPlain(folder.options(), format: .json)
        #expect(status == .success)
        #expect(lines.errors.isEmpty)
        let objects = try lines.output.map(jsonObject)
        try #require(objects.count > Self.plan.count)
        #expect(objects.allSatisfy { $0["event"] is String })

        let started = objects[0]
        #expect(started["event"] as? String == "started")
        let planned = try #require(started["steps"] as? [[String: Any]])
        #expect(planned.map { $0["step"] as? String } == Self.plan.map(\.1))
        #expect(planned.map { $0["phase"] as? String } == Self.plan.map(\.0))

        let finished = objects.filter { $0["event"] as? String == "stepFinished" }
        #expect(Set(finished.compactMap { $0["step"] as? String }) == Set(Self.plan.map(\.1)))
        for object in finished {
            #expect(object["phase"] is String)
            #expect(object["ms"] is NSNumber)
            #expect(object["startMs"] is NSNumber)
        }
        #expect(objects.contains { $0["event"] as? String == "finished" && $0["ms"] is NSNumber })

        let fact = try #require(objects.last)
        #expect(fact["event"] as? String == "fact")
        #expect((fact["text"] as? String)?.isEmpty == false)
        #expect(fact["environment"] as? String == "embedded")
        #expect(fact["latencyMs"] is NSNumber)
        #expect(fact["timesSeen"] as? Int == 1)
        #expect(fact["factsStored"] as? Int == 1)
        #expect(fact["fetchedAt"] is String)
    }

    @Test("JSON: a broken run ends with a failed object carrying step, phase, error and hint")
    func brokenJSON() async throws {
        let folder = try TemporaryFolder()
        let (status, lines) = await runPlain(folder.options(environment: "broken"), format: .json)
        #expect(status == .initializationFailed)
        let objects = try lines.output.map(jsonObject)
        let stepFailed = try #require(objects.first { $0["event"] as? String == "stepFailed" })
        #expect(stepFailed["step"] as? String == "Fetch the first cat fact")
        let failed = try #require(objects.last)
        #expect(failed["event"] as? String == "failed")
        #expect(failed["step"] as? String == "Fetch the first cat fact")
        #expect(failed["phase"] as? String == "async")
        #expect(failed["environment"] as? String == "broken")
        #expect((failed["error"] as? String)?.contains("HTTP 500") == true)
        #expect((failed["hint"] as? String)?.contains("--env NAME") == true)
        #expect(failed["cancelled"] as? Bool == false)
        #expect(failed["ms"] is NSNumber)
    }

    @Test("Text from a server can hold quotes, line breaks and escape codes: JSON keeps it exactly, text defuses it")
    func hostileText() throws {
        let text = "Cats \"purr\"\n\u{1B}[2J\u{07}\ttab \\ ✓ 猫"
        let fact = Fact(
            text: text, environment: "env\u{1B}[31m", latency: .milliseconds(12), timesSeen: 2, factsStored: 3,
            fetchedAt: Date())

        let json = LineRecorder()
        PlainReporter(format: .json, sink: json.sink).report(fact)
        let line = try #require(json.output.first)
        #expect(!line.contains("\u{1B}") && !line.contains("\n"))
        let object = try jsonObject(line)
        #expect(object["text"] as? String == text)
        #expect(object["environment"] as? String == "env\u{1B}[31m")

        let plain = LineRecorder()
        PlainReporter(format: .text, sink: plain.sink).report(fact)
        #expect(
            plain.output == [
                "fact: Cats \"purr\" \u{FFFD}[2J\u{FFFD} tab \\ ✓ 猫",
                "environment: env\u{FFFD}[31m · 12 ms · seen 2 times · 3 facts in history",
            ])
    }

    @Test("Cancelling a run in progress reports it as interrupted and returns 130")
    func cancellation() async throws {
        let folder = try TemporaryFolder()
        var options = folder.options()
        options.environmentsFile = try folder.environmentsFile(
            #"{"environments": [{"name": "slow", "description": "answers too late", "source": "embedded", "fault": "slow", "timeoutSeconds": 60}]}"#
        )
        let recorder = LineRecorder()
        let reporter = PlainReporter(format: .text, sink: recorder.sink)
        let session = Task { await PlainSession(options: options, reporter: reporter).run() }
        // Wait until only the (slow) fact request is still running: the history, the server, the
        // client and the fact service have finished, recording waits for the fact, the health
        // check for ready.
        var finished: Set<String> = []
        for await line in recorder.stream where line.text.hasPrefix("[async] ✓ ") {
            finished.insert(line.text)
            if finished.count == 4 { break }
        }
        #expect(!finished.contains { $0.contains("Fetch the first cat fact") })
        session.cancel()
        #expect(await session.value == .interrupted)
        #expect(recorder.output.contains { $0.hasPrefix("[async] - Fetch the first cat fact (interrupted after ") })
        #expect(!recorder.output.contains { $0.contains("✗") })
        #expect(recorder.errors.count == 1, "\(recorder.all)")
        #expect(
            recorder.errors.first?.hasPrefix(
                #"weft: interrupted in environment "slow" during step "Fetch the first cat fact""#) == true)
    }

    @Test("A step that fails with its own error after an interruption reads as interrupted")
    func interruptedStepFailure() throws {
        let step = InitializationStepInfo(
            id: "fact", title: "Fetch the first cat fact", phase: .async, index: 2, position: 5, type: .repeatable)
        let timing = InitializationStepTiming(
            step: step, startOffset: .zero, duration: .milliseconds(40), outcome: .failed)
        let error = FactServiceError.transport(url: URL(string: "http://127.0.0.1:1/fact")!, reason: "cancelled")
        let text = LineRecorder()
        let reporter = PlainReporter(format: .text, sink: text.sink)
        reporter.report(.stepFailed(timing, error: error))
        reporter.report(.stepFailed(timing, error: error), interrupted: true)
        #expect(
            text.output == [
                "[async] ✗ Fetch the first cat fact (40 ms)",
                "[async] - Fetch the first cat fact (interrupted after 40 ms)",
            ])
        let json = LineRecorder()
        PlainReporter(format: .json, sink: json.sink).report(.stepFailed(timing, error: error), interrupted: true)
        #expect(try jsonObject(try #require(json.output.first))["error"] as? String == "interrupted")
    }

    @Test("A step an interruption cancelled reads as interrupted in text, and stays stepCancelled in JSON")
    func interruptedStepCancelled() throws {
        let step = InitializationStepInfo(
            id: "fact", title: "Fetch the first cat fact", phase: .async, index: 2, position: 5, type: .repeatable)
        let timing = InitializationStepTiming(
            step: step, startOffset: .zero, duration: .milliseconds(40), outcome: .cancelled)
        let text = LineRecorder()
        let reporter = PlainReporter(format: .text, sink: text.sink)
        reporter.report(.stepCancelled(timing))
        reporter.report(.stepCancelled(timing), interrupted: true)
        #expect(
            text.output == [
                "[async] - Fetch the first cat fact (cancelled after 40 ms)",
                "[async] - Fetch the first cat fact (interrupted after 40 ms)",
            ])
        let json = LineRecorder()
        PlainReporter(format: .json, sink: json.sink).report(.stepCancelled(timing), interrupted: true)
        #expect(try jsonObject(try #require(json.output.first))["event"] as? String == "stepCancelled")
    }

    @Test("JSON: a degraded run ends with the fact, unrecorded, then a degraded record naming the failed step")
    func degradedJSON() async throws {
        let folder = try TemporaryFolder()
        try Data("not a database".utf8).write(to: folder.database)
        let (status, lines) = await runPlain(folder.options(), format: .json)
        #expect(status == .degraded)
        let objects = try lines.output.map(jsonObject)
        let fact = try #require(objects.first { $0["event"] as? String == "fact" })
        #expect(fact["timesSeen"] == nil && (fact["text"] as? String)?.isEmpty == false)
        let degraded = try #require(objects.last)
        #expect(degraded["event"] as? String == "degraded")
        #expect(degraded["failedSteps"] as? [String] == ["history"])
        #expect((degraded["error"] as? String)?.contains(folder.database.path) == true)
        #expect(
            objects.contains {
                $0["event"] as? String == "stepSkipped" && $0["step"] as? String == "Record the fact in the history"
            })
    }
}
