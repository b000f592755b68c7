/// A synchronous step of the pre-sync or post-sync phase; it runs on the main actor and
/// writes straight into the process.
///
/// ```swift
/// SyncInitializationStep<AppProcess>(title: "Choose the environment", type: .repeatable) { process in
///     process.environment = .staging
/// }
/// ```
public struct SyncInitializationStep<Process: DependencyInitializationProcess>: Sendable {
    let title: String
    let type: InitializationStepType
    let body: @MainActor @Sendable (Process) throws -> Void

    /// Creates a synchronous step.
    /// - Parameters:
    ///   - title: The title shown by user interfaces; may be empty.
    ///   - type: `.simple` (first run only) or `.repeatable` (also on `runRepeat`).
    ///   - run: The work; throw to fail the run.
    public init(
        title: String = "",
        type: InitializationStepType = .simple,
        run: @escaping @MainActor @Sendable (Process) throws -> Void
    ) {
        self.title = title
        self.type = type
        self.body = run
    }
}
