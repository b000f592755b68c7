/// An asynchronous step ran longer than its ``AsyncInitializationStep/timeout``.
public struct InitializationStepTimeoutError: Error, Hashable, CustomStringConvertible {
    /// The title of the step that timed out.
    public let stepTitle: String
    /// The timeout the step exceeded.
    public let timeout: Duration

    /// Creates a timeout error for the step titled `stepTitle`.
    public init(stepTitle: String, timeout: Duration) {
        self.stepTitle = stepTitle
        self.timeout = timeout
    }

    /// Names the step and the timeout, and says what to do.
    public var description: String {
        "Step '\(stepTitle)' did not finish within its timeout of \(timeout.milliseconds) ms; "
            + "raise the step's timeout, or check that what it waits for is reachable."
    }
}
