import Foundation
import Synchronization

/// One fuzz target: checks what the code under test does with `bytes`, and stops the process
/// through ``fuzzFailure(_:_:)`` when it does something it must not.
typealias FuzzTarget = @Sendable ([UInt8]) -> Void

/// Every target, by the name the first argument gives.
let allTargets: [String: FuzzTarget] = [
    EnvironmentsTarget.name: EnvironmentsTarget.run,
    SettingsTarget.name: SettingsTarget.run,
    FactReplyTarget.name: FactReplyTarget.run,
    ServeRequestTarget.name: ServeRequestTarget.run,
    HistoryTarget.name: HistoryTarget.run,
    MouseReportTarget.name: MouseReportTarget.run,
    BudgetTarget.name: BudgetTarget.run,
]

/// Whether the first argument names the target. The processes libFuzzer starts itself (to
/// merge a corpus, say) get its options only, and find the target in `WEFT_FUZZ_TARGET`.
let targetNamedFirst = CommandLine.arguments.count >= 2 && allTargets[CommandLine.arguments[1]] != nil

/// The name of the target this process runs.
let chosenName: String? =
    targetNamedFirst ? CommandLine.arguments[1] : ProcessInfo.processInfo.environment["WEFT_FUZZ_TARGET"]

/// The target this process runs: a constant, read by libFuzzer's callback on every input.
let chosenTarget: FuzzTarget? = chosenName.flatMap { allTargets[$0] }

/// Stops the run: libFuzzer reports the input as a crash and writes it to a file.
func fuzzFailure(_ message: String, _ input: @autoclosure () -> String = "") -> Never {
    let shown = input()
    fatalError("fuzz check failed: \(message)\(shown.isEmpty ? "" : "\n  input: \(shown)")")
}

/// Checks `condition`, failing the run with `message` otherwise.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fuzzFailure(message()) }
}

/// Runs `body` to completion from synchronous code (libFuzzer calls targets synchronously).
///
/// Returns only once the task has ended, not merely once it has handed over its value: until
/// then its frame still holds what it made, where LeakSanitizer's check after an input does not
/// look, and the check reported the fact's bytes as leaked (once, in CI).
func blocking<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value {
    let result = Mutex<Value?>(nil)
    let ended = DispatchSemaphore(value: 0)
    // Only the closure holds the witness: a local would keep it alive past the wait.
    Task.detached { [witness = TaskEndWitness(ended)] in
        let value = await body()
        result.withLock { $0 = value }
        witness.keepAlive()
    }
    // The task's closure, and the witness with it, is released once the task has returned.
    ended.wait()
    guard let value = result.withLock({ $0 }) else { fuzzFailure("a blocking task ended without a value") }
    return value
}

/// Signals its semaphore when it is deinitialised: captured by a task's closure, when the
/// task has returned and released the closure.
private final class TaskEndWitness: Sendable {
    let ended: DispatchSemaphore
    init(_ ended: DispatchSemaphore) { self.ended = ended }
    /// Uses the witness, so the closure captures it.
    func keepAlive() {}
    deinit { ended.signal() }
}

/// Splits `bytes` at each `separator`, into at most `parts` parts (the last keeps the rest).
func split(_ bytes: [UInt8], by separator: UInt8, parts: Int) -> [[UInt8]] {
    bytes.split(separator: separator, maxSplits: parts - 1, omittingEmptySubsequences: false).map(Array.init)
}

/// `text` as a JSON string literal, as Foundation's encoder writes it.
func jsonString(_ text: String) -> String {
    guard let data = try? JSONEncoder().encode(text) else { fuzzFailure("JSONEncoder cannot write a string") }
    return String(decoding: data, as: UTF8.self)
}
