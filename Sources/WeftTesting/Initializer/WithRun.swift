public import WeftInitializer

/// A run of a `DependencyInitializer` that ``withRun(of:_:)`` started: its outcome, once it
/// has one.
@MainActor
public final class InitializerRun<Process: DependencyInitializationProcess> {
    fileprivate typealias Outcome = Result<InitializationResult<Process>, any Error>
    private var outcome: Outcome?
    private var waiting: [CheckedContinuation<Outcome, Never>] = []

    fileprivate init() {}

    /// The run's result, once it is ready (steps after ready may still be running).
    ///
    /// - Throws: The run's `InitializationFailure` (a cancelled run's says so:
    ///   `isCancellation`), or its `InitializationConfigurationError`.
    public var value: InitializationResult<Process> {
        get async throws {
            if let outcome { return try outcome.get() }
            return try await withCheckedContinuation { waiting.append($0) }.get()
        }
    }

    fileprivate func perform(_ initializer: DependencyInitializer<Process>) async {
        do {
            let result = try await initializer.run()
            end(with: .success(result))
            // Steps after ready run on in this child task: the scope's end cancels them too.
            _ = await result.waitForLaterSteps()
        } catch {
            end(with: .failure(error))
        }
    }

    private func end(with outcome: Outcome) {
        self.outcome = outcome
        let waiting = waiting
        self.waiting = []
        for waiter in waiting { waiter.resume(returning: outcome) }
    }
}

/// Runs `initializer` in a child task of the caller while `body` drives it, and ends the run
/// before returning.
///
/// Use it instead of `Task { try await initializer.run() }` in tests: the run is a child of
/// the test's task, so the test's time limit, or anything else that cancels the test, cancels
/// the run too, and nothing is left running after the test. When `body` returns or throws
/// while the run is still going — its steps after ready included — the run is cancelled and
/// awaited. ``InitializerRun/value`` is the result at ready.
///
/// ```swift
/// let result = try await withRun(of: initializer) { run in
///     let wake = try await clock.waitForRetryDelay(of: "fact")
///     clock.advance(to: wake)  // the next attempt starts
///     return try await run.value
/// }
/// ```
///
/// - Parameters:
///   - initializer: The initializer to run; it must not be running.
///   - body: What the test does while the run goes on; ``InitializerRun/value`` waits for its
///     outcome.
/// - Returns: What `body` returns.
@MainActor
public func withRun<Process: DependencyInitializationProcess, Value>(
    of initializer: DependencyInitializer<Process>,
    _ body: (InitializerRun<Process>) async throws -> Value
) async throws -> Value {
    let run = InitializerRun<Process>()
    // A child task, cancelled and awaited when this scope ends without awaiting it.
    async let _ = run.perform(initializer)
    return try await body(run)
}
