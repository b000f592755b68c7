import FactKit
import Foundation
import Synchronization
import WeftApp

/// `WeftFuzz throughput [--check]`: how fast each parser of untrusted input reads, beside
/// Foundation's `JSONDecoder` on the same bytes, and whether environments files read in
/// linear time. Figures from a release build go in Tests/Benchmarks/README.md; `--check`
/// (scripts/test, any build) fails when 40,000 environments take more than 20 times as long
/// as 4,000: 10 is linear, 100 quadratic.
enum Throughput {
    /// An environments file as weft reads it.
    struct EnvironmentsFile: Decodable {
        struct Entry: Decodable {
            var name: String
            var description: String
            var source: String
            var timeoutSeconds: Double?
            var fault: String?
        }
        var environments: [Entry]
    }

    /// A fact server's answer.
    struct Fact: Decodable {
        var fact: String
        var length: Int
    }

    /// `count` environments, one field to a line, or all on one line.
    static func environmentsFile(count: Int, oneLine: Bool) -> Data {
        let separator = oneLine ? " " : "\n      "
        let entries = (0..<count).map { index in
            let source = index % 3 == 0 ? "embedded" : "http://127.0.0.1:\(8000 + index % 1000)/cats/\(index)"
            return "{"
                + [
                    "\"name\": \"env-\(index)\"", "\"description\": \"Fakten über Katzen №\(index), très bien 🐈\"",
                    "\"source\": \"\(source)\"", "\"timeoutSeconds\": \(1 + index % 30).5",
                ].joined(separator: "," + separator) + "}"
        }
        return Data(("{\"environments\": [" + entries.joined(separator: oneLine ? ", " : ",\n    ") + "]}").utf8)
    }

    /// The fastest of enough runs of `body` to take about `budget` seconds (at least `runs`).
    static func fastest(budget: Double = 0.3, runs minimum: Int = 3, _ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        var best = Double.infinity
        var spent = 0.0
        var runs = 0
        while runs < minimum || spent < budget {
            let elapsed = clock.measure(body)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            best = min(best, seconds)
            spent += seconds
            runs += 1
        }
        return best
    }

    static func megabytesPerSecond(_ bytes: Int, _ seconds: Double) -> String {
        String(format: "%.1f", Double(bytes) / seconds / 1e6)
    }

    static func milliseconds(_ seconds: Double) -> String {
        seconds < 1e-3 ? String(format: "%.1f µs", seconds * 1e6) : String(format: "%.2f ms", seconds * 1000)
    }

    static func run(check: Bool) -> Int32 {
        if check { return checkLinear() }
        print("| parser | input | bytes | weft | weft MB/s | JSONDecoder | JSONDecoder MB/s |")
        print("|---|---|---|---|---|---|---|")
        for count in [500, 4_000, 40_000] {
            for oneLine in [false, true] {
                let data = environmentsFile(count: count, oneLine: oneLine)
                let weft = fastest { _ = try? EnvironmentCatalog(data: data, file: "environments.json") }
                let foundation = fastest { _ = try? JSONDecoder().decode(EnvironmentsFile.self, from: data) }
                print(
                    "| environments file | \(count) environments, \(oneLine ? "one line" : "indented") | \(data.count) | \(milliseconds(weft)) | \(megabytesPerSecond(data.count, weft)) | \(milliseconds(foundation)) | \(megabytesPerSecond(data.count, foundation)) |"
                )
            }
        }
        let reader = environmentsFile(count: 4_000, oneLine: false)
        let bytes = Array(reader)
        let strict = fastest { _ = try? JSONDocument.parse(bytes) }
        let serialization = fastest { _ = try? JSONSerialization.jsonObject(with: reader) }
        print(
            "| strict JSON reader alone (JSONSerialization beside it) | 4000 environments, indented | \(reader.count) | \(milliseconds(strict)) | \(megabytesPerSecond(reader.count, strict)) | \(milliseconds(serialization)) | \(megabytesPerSecond(reader.count, serialization)) |"
        )
        let config = Data(
            #"{"env": "staging", "logLevel": "info", "database": "~/history.sqlite", "environments": "envs.json", "startupDeadline": 2.5}"#
                .utf8)
        let settings = fastest { for _ in 0..<1000 { _ = try? AppSettings.parseConfig(config, path: "config.json") } }
        let settingsFoundation = fastest {
            for _ in 0..<1000 { _ = try? JSONSerialization.jsonObject(with: config) as? [String: Any] }
        }
        print(
            "| config.json (JSONSerialization beside it, as before) | 5 settings, ×1000 | \(config.count) | \(milliseconds(settings / 1000)) | \(megabytesPerSecond(config.count * 1000, settings)) | \(milliseconds(settingsFoundation / 1000)) | \(megabytesPerSecond(config.count * 1000, settingsFoundation)) |"
        )
        let url = URL(string: "http://127.0.0.1/fact")!
        let reply = Data(
            #"{"fact":"Cats have five toes on each front paw, but only four on each back paw.","length":70}"#.utf8)
        let decode = fastest { for _ in 0..<1000 { _ = try? FactService.decodeFact(from: reply, url: url) } }
        let decoder = fastest { for _ in 0..<1000 { _ = try? JSONDecoder().decode(Fact.self, from: reply) } }
        print(
            "| fact reply (strict reader, checked) | one fact, ×1000 | \(reply.count) | \(milliseconds(decode / 1000)) | \(megabytesPerSecond(reply.count * 1000, decode)) | \(milliseconds(decoder / 1000)) | \(megabytesPerSecond(reply.count * 1000, decoder)) |"
        )
        return 0
    }

    /// 40,000 environments take at most 20 times as long as 4,000, indented and on one line.
    static func checkLinear() -> Int32 {
        var status: Int32 = 0
        for oneLine in [false, true] {
            let small = environmentsFile(count: 4_000, oneLine: oneLine)
            let large = environmentsFile(count: 40_000, oneLine: oneLine)
            let smallTime = fastest(budget: 0.5) { _ = try? EnvironmentCatalog(data: small, file: "small.json") }
            let layout = oneLine ? "one line" : "indented"
            // Given up on past the limit: quadratic reading of 40,000 takes minutes.
            let finished = DispatchSemaphore(value: 0)
            let measured = Mutex<Double?>(nil)
            Thread.detachNewThread {
                let time = fastest(budget: 0, runs: 1) { _ = try? EnvironmentCatalog(data: large, file: "large.json") }
                measured.withLock { $0 = time }
                finished.signal()
            }
            guard finished.wait(timeout: .now() + smallTime * 21) == .success, let largeTime = measured.withLock({ $0 })
            else {
                print("error: 40,000 environments (\(layout)) took over 21× as long as 4,000: reading is not linear")
                return 1
            }
            let ratio = largeTime / smallTime
            print(
                "environments, \(layout): 4,000 in \(milliseconds(smallTime)), 40,000 in \(milliseconds(largeTime)): \(String(format: "%.1f", ratio))× for 10× the entries"
            )
            if ratio > 20 {
                print("error: reading environments files is not linear (\(layout)): at most 20× allowed")
                status = 1
            }
        }
        return status
    }
}
