/// An asynchronous step of the async phase; every async step of a run runs concurrently
/// with the others, off the main actor.
///
/// Compute a value off the main actor and let the initializer store it into the process on
/// the main actor:
///
/// ```swift
/// AsyncInitializationStep<AppProcess>(title: "Fetch a cat fact", timeout: .seconds(5)) { process in
///     guard let repository = await process.repository else { throw MissingRepository() }
///     return try await repository.catFact()
/// } apply: { process, fact in
///     process.initialCatFact = fact
/// }
/// ```
///
/// A step still running when the run ends — its timeout passed, another step failed, or the
/// run was cancelled — is cancelled and abandoned: the run does not wait for it, and its
/// `apply` never runs. Write into the process in `apply`; a step that writes into it itself
/// (through a main-actor method) can still write after it was abandoned.
public struct AsyncInitializationStep<Process: DependencyInitializationProcess>: Sendable {
    let title: String
    let type: InitializationStepType
    let timeout: Duration?
    let priority: TaskPriority?
    /// The work; what it returns is applied to the process only if the step was not
    /// abandoned by then.
    let body: Body

    /// A step's work, in the form it was given.
    enum Body: Sendable {
        case run(@Sendable (Process) async throws -> Void)
        /// Work whose result the run stores into the process on the main actor.
        case produce(@Sendable (Process) async throws -> GraphRun.Apply)

        /// Work that produces a value off the main actor, then `apply` stores it into the process.
        static func producing<Value: Sendable>(
            _ produce: @escaping @Sendable (Process) async throws -> Value,
            apply: @escaping @MainActor @Sendable (Process, Value) -> Void
        ) -> Body {
            .produce { process in
                let value = try await produce(process)
                return { apply(process, value) }
            }
        }
    }

    /// Creates an asynchronous step that computes a value off the main actor; the
    /// initializer then stores it into the process with `apply`, on the main actor.
    /// - Parameters:
    ///   - title: The title shown by user interfaces; may be empty.
    ///   - type: `.simple` (first run only) or `.repeatable` (also on `runRepeat`).
    ///   - timeout: The longest the step may run. When it passes, the run fails with
    ///     ``InitializationStepTimeoutError`` at once, and the step is cancelled and
    ///     abandoned, whether or not it responds to cancellation.
    ///   - priority: The priority of the step's task; `nil` inherits the run's priority.
    ///   - produce: The work, run off the main actor; throw to fail the run.
    ///   - apply: Stores the produced value; runs on the main actor, and never for a step
    ///     that was abandoned.
    public init<Value: Sendable>(
        title: String = "",
        type: InitializationStepType = .simple,
        timeout: Duration? = nil,
        priority: TaskPriority? = nil,
        produce: @escaping @Sendable (Process) async throws -> Value,
        apply: @escaping @MainActor @Sendable (Process, Value) -> Void
    ) {
        self.init(
            title: title, type: type, timeout: timeout, priority: priority,
            body: .producing(produce, apply: apply))
    }

    /// Creates an asynchronous step that stores nothing into the process, such as a check
    /// or a warm-up.
    ///
    /// The parameters are those of ``init(title:type:timeout:priority:produce:apply:)``.
    public init(
        title: String = "",
        type: InitializationStepType = .simple,
        timeout: Duration? = nil,
        priority: TaskPriority? = nil,
        run: @escaping @Sendable (Process) async throws -> Void
    ) {
        self.init(title: title, type: type, timeout: timeout, priority: priority, body: .run(run))
    }

    private init(
        title: String,
        type: InitializationStepType,
        timeout: Duration?,
        priority: TaskPriority?,
        body: Body
    ) {
        self.title = title
        self.type = type
        self.timeout = timeout
        self.priority = priority
        self.body = body
    }
}
