/// An asynchronous step of the async phase; every async step of a run runs concurrently
/// with the others, off the main actor.
///
/// The process is main-actor isolated, so the step reaches it only through `await`. Either
/// hop explicitly:
///
/// ```swift
/// AsyncInitializationStep<AppProcess>(title: "Fetch a cat fact", timeout: .seconds(5)) { process in
///     guard let repository = await process.repository else { throw MissingRepository() }
///     let fact = try await repository.catFact()
///     await MainActor.run { process.initialCatFact = fact }
/// }
/// ```
///
/// or return a value and let the initializer apply it on the main actor with
/// ``init(title:type:timeout:priority:produce:apply:)``.
public struct AsyncInitializationStep<Process: DependencyInitializationProcess>: Sendable {
    /// The title a user interface shows for the step.
    public let title: String
    /// Whether the step runs again on `runRepeat`.
    public let type: InitializationStepType
    /// How long the step may take before it fails with ``InitializationStepTimeoutError``;
    /// `nil` waits as long as the step takes.
    public let timeout: Duration?
    /// The priority of the step's child task; `nil` inherits the run's priority.
    public let priority: TaskPriority?
    let body: @Sendable (Process) async throws -> Void

    /// Creates an asynchronous step.
    /// - Parameters:
    ///   - title: The title shown by user interfaces; may be empty.
    ///   - type: `.simple` (first run only) or `.repeatable` (also on `runRepeat`).
    ///   - timeout: The longest the step may take. When it passes, the step's task is
    ///     cancelled and the run fails with ``InitializationStepTimeoutError``. The step must
    ///     respond to cancellation for the run to end promptly.
    ///   - priority: The priority of the step's child task.
    ///   - run: The work, run off the main actor; throw to fail the run.
    public init(
        title: String = "",
        type: InitializationStepType = .simple,
        timeout: Duration? = nil,
        priority: TaskPriority? = nil,
        run: @escaping @Sendable (Process) async throws -> Void
    ) {
        self.title = title
        self.type = type
        self.timeout = timeout
        self.priority = priority
        self.body = run
    }

    /// Creates an asynchronous step that computes a value off the main actor and then
    /// stores it into the process on the main actor.
    ///
    /// ```swift
    /// AsyncInitializationStep<AppProcess>(title: "Fetch a cat fact") { process in
    ///     try await process.requireRepository().catFact()
    /// } apply: { process, fact in
    ///     process.initialCatFact = fact
    /// }
    /// ```
    /// - Parameters:
    ///   - produce: The work, run off the main actor.
    ///   - apply: Stores the produced value; runs on the main actor.
    public init<Value: Sendable>(
        title: String = "",
        type: InitializationStepType = .simple,
        timeout: Duration? = nil,
        priority: TaskPriority? = nil,
        produce: @escaping @Sendable (Process) async throws -> Value,
        apply: @escaping @MainActor @Sendable (Process, Value) -> Void
    ) {
        self.init(title: title, type: type, timeout: timeout, priority: priority) { process in
            let value = try await produce(process)
            try Task.checkCancellation()
            await apply(process, value)
        }
    }

    /// Runs the step's work, enforcing its timeout.
    func execute(on process: Process) async throws {
        guard let timeout else {
            try await body(process)
            return
        }
        let body = self.body
        let title = self.title
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await body(process) }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw InitializationStepTimeoutError(stepTitle: title, timeout: timeout)
            }
            defer { group.cancelAll() }
            try await group.next()
        }
    }
}
