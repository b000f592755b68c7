import Foundation

@testable import FactKit
@testable import WeftApp

/// Collects a reporter's lines; written from the reporter's tasks, read by the test.
final class LineRecorder: @unchecked Sendable {  // `lines` is only touched under `lock`.
    private let lock = NSLock()
    private var lines: [PlainLine] = []
    private let continuation: AsyncStream<PlainLine>.Continuation
    /// Every line, as it is recorded.
    let stream: AsyncStream<PlainLine>

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: PlainLine.self)
    }

    /// The sink to give a ``PlainReporter``.
    var sink: @Sendable (PlainLine) -> Void {
        { [self] line in
            lock.withLock { lines.append(line) }
            continuation.yield(line)
        }
    }

    var all: [PlainLine] { lock.withLock { lines } }
    var output: [String] { all.filter { $0.stream == .output }.map(\.text) }
    var errors: [String] { all.filter { $0.stream == .error }.map(\.text) }
}

/// A temporary folder for one test's history database and environments file.
struct TemporaryFolder: ~Copyable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("weft-plain-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    var database: URL { url.appendingPathComponent("history.sqlite") }

    func options(environment: String? = nil) -> AppOptions {
        AppOptions(environmentName: environment, databaseURL: database).underTest
    }

    /// Writes an environments file and returns its URL.
    func environmentsFile(_ json: String) throws -> URL {
        let file = url.appendingPathComponent("environments.json")
        try Data(json.utf8).write(to: file)
        return file
    }
}

/// Runs a plain session to the end and returns its status and lines.
@MainActor
func runPlain(_ options: AppOptions, format: PlainFormat) async -> (ExitStatus, LineRecorder) {
    let recorder = LineRecorder()
    let status = await PlainSession(
        options: options.underTest, reporter: PlainReporter(format: format, sink: recorder.sink)
    )
    .run()
    return (status, recorder)
}

/// Parses one JSON line into an object.
func jsonObject(_ line: String) throws -> [String: Any] {
    let value = try JSONSerialization.jsonObject(with: Data(line.utf8))
    guard let object = value as? [String: Any] else { throw NotAnObject(line: line) }
    return object
}

struct NotAnObject: Error, CustomStringConvertible {
    let line: String
    var description: String { "not a JSON object: \(line)" }
}

extension AppOptions {
    /// These options with the step timeouts a test run can keep: ten times the plan's
    /// (``AppOptions/stepTimeoutScale``), since hundreds of tests at once on a loaded machine can
    /// hold a step past its timeout. Tests of timeouts move a clock of their own.
    var underTest: AppOptions {
        var options = self
        options.stepTimeoutScale = 10
        return options
    }
}
