import Foundation

/// `WeftBenchmarks wait [WEFT]`: the CPU time of the real `weft --plain` (release,
/// `.build/release/weft` unless given) waiting 5 s for a server that accepts and never
/// answers, from `wait4`'s `rusage` of the child; and how far past 5 s it gave up.
enum WaitBenchmarks {
    static func run(weft: String) async {
        print("\n== waiting 5 s on a silent server: \(weft) ==")
        guard FileManager.default.isExecutableFile(atPath: weft) else {
            print(
                "MISS: no weft binary at \(weft); build it with `swift build -c release --product weft` in the package root"
            )
            return
        }
        do {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "weft-wait-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let listener = try SilentListener()
            let environments = try silentEnvironmentsFile(in: directory, port: listener.port, timeoutSeconds: 5)
            var runs: [ChildUsage] = []
            for index in 0..<3 {
                let usage = try await runChild(
                    weft,
                    [
                        "--plain", "--environments", environments.path,
                        "--database", directory.appendingPathComponent("history-\(index).sqlite").path,
                    ])
                runs.append(usage)
                print(
                    "run \(index + 1): exit \(usage.status), wall \(ms(usage.wall)), CPU \(ms(usage.cpu)) (user \(ms(usage.user)), sys \(ms(usage.system)))"
                )
            }
            withExtendedLifetime(listener) {}
            let cpu = runs.map(\.cpu).sorted()[runs.count / 2]
            let wall = runs.map(\.wall).sorted()[runs.count / 2]
            print(
                "median: CPU \(ms(cpu)) for \(ms(wall)) of wall time; target < 250 ms: \(cpu < .milliseconds(250) ? "PASS" : "MISS")"
            )
        } catch {
            print("MISS: \(error)")
        }
    }

    private static func ms(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%.0f ms", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
    }
}
