import WeftPrimitives

/// An attempt of an asynchronous step was still running when its timeout passed: the attempt
/// was cancelled and abandoned, and the step failed with this error (unless it had attempts
/// left, which its retry policy then runs).
public struct InitializationStepTimeoutError: Error, Hashable, CustomStringConvertible {
    /// The title of the step that timed out.
    public let stepTitle: String
    /// The timeout the step exceeded.
    public let timeout: Duration

    init(stepTitle: String, timeout: Duration) {
        self.stepTitle = stepTitle
        self.timeout = timeout
    }

    /// Names the step and the timeout, and says what to do.
    public var description: String {
        "Step '\(stepTitle)' did not finish within its timeout of \(timeout.roundedMilliseconds) ms; "
            + "raise the step's timeout, or check that what it waits for is reachable."
    }
}
