import FactKit
import Weft
import WeftInitializer
import WeftPrimitives

/// Why a run failed, in a person's words: the step, its phase, the error and what to do.
struct PlainFailure: Sendable, Hashable {
    /// A start-up deadline that passed: how long it was and the steps still going.
    struct Deadline: Encodable, Sendable, Hashable {
        /// A step still going when the deadline passed.
        struct Pending: Encodable, Sendable, Hashable {
            /// The step's id, such as `fact`.
            var id: String
            /// Its title.
            var step: String
            /// Its phase or kind, as output labels it.
            var phase: String
            /// How long it had been going.
            var goingFor: Duration
            /// The attempts started: the one running, or those run before a retry delay.
            var attempt: Int
            /// Whether it was waiting out a retry delay rather than running an attempt.
            var waitingToRetry = false

            private enum CodingKeys: String, CodingKey { case id, step, phase, goingForMs, attempt, waitingToRetry }

            /// As JSON output writes it: durations in milliseconds.
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(id, forKey: .id)
                try container.encode(step, forKey: .step)
                try container.encode(phase, forKey: .phase)
                try container.encode(goingFor.roundedMilliseconds, forKey: .goingForMs)
                try container.encode(attempt, forKey: .attempt)
                try container.encode(waitingToRetry, forKey: .waitingToRetry)
            }
        }

        /// The deadline, from the start of the run.
        var deadline: Duration
        /// The steps still going, the one that held the start-up up first.
        var pending: [Pending]
        /// The step about to start when nothing was going, if any.
        var nextStep: String?

        private enum CodingKeys: String, CodingKey { case ms, pending, nextStep }

        /// As JSON output writes it: `ms`, `pending` and, when set, `nextStep`.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(deadline.roundedMilliseconds, forKey: .ms)
            try container.encode(pending, forKey: .pending)
            try container.encodeIfPresent(nextStep, forKey: .nextStep)
        }

        /// The deadline `error` reports, or `nil` when it is not `InitializationDeadlineExceeded`.
        init?(_ error: any Error) {
            guard let error = FailureAdvice.rootCause(of: error) as? InitializationDeadlineExceeded else { return nil }
            deadline = error.deadline
            pending = error.pending.map {
                Pending(
                    id: $0.step.id, step: $0.step.title, phase: $0.step.kindLabel, goingFor: $0.goingFor,
                    attempt: $0.attempt, waitingToRetry: $0.isWaitingToRetry)
            }
            nextStep = error.nextStep?.title
        }
    }

    /// The title of the step that failed.
    var step: String
    /// The phase it ran in: `pre-sync`, `async`, `post-sync` or `container`.
    var phase: String
    /// The time from the start of the run to the failure.
    var elapsed: Duration
    /// The error, as one line of text.
    var message: String
    /// What the person can do about it, for the command line; empty when interrupted.
    var hint: String
    /// The environment the run was in, when it got as far as choosing one.
    var environment: String?
    /// Whether the person interrupted the run.
    var isCancellation: Bool
    /// The start-up's deadline, when it passed: what stopped the run.
    var deadline: Deadline?
    /// The status `weft` exits with.
    var exitStatus: ExitStatus

    /// Describes `error`, thrown by `step` after `elapsed`, in `environment`.
    ///
    /// - Parameter interrupted: Whether the person stopped the run. A step that was
    ///   cancelled may fail with its own error (a cancelled request, say); an interrupted
    ///   run is reported as interrupted all the same.
    init(
        step: InitializationStepInfo, error: any Error, elapsed: Duration, environment: Environment?,
        interrupted: Bool = false
    ) {
        let cause = interrupted ? CancellationError() : Self.rootCause(of: error)
        self.step = step.title
        self.phase = step.kindLabel
        self.elapsed = elapsed
        self.message = Self.message(for: cause)
        self.hint = Self.hint(for: cause, environment: environment).plainText
        self.environment = environment?.name
        self.isCancellation = cause is CancellationError
        self.deadline = Deadline(cause)
        self.exitStatus = ExitStatus(failingWith: cause)
    }

    /// Describes a failed run of the app's initialization plan.
    @MainActor
    init(_ failure: InitializationFailure<AppProcess>, interrupted: Bool = false) {
        self.init(
            step: failure.failedStep, error: failure.error, elapsed: failure.elapsed,
            environment: failure.process.environment, interrupted: interrupted || failure.isCancellation)
    }

    /// The error a person should read: a container's "factory threw" wrapper is removed.
    static func rootCause(of error: any Error) -> any Error {
        FailureAdvice.rootCause(of: error)
    }

    /// The error as one line of text; `interrupted` for a cancellation.
    static func message(for error: any Error) -> String {
        error is CancellationError ? "interrupted" : String(describing: error).plainText
    }

    /// ``FailureAdvice`` for a command line: actions are options, not keys.
    static func hint(for error: any Error, environment: Environment?) -> String {
        FailureAdvice.hint(for: error, environment: environment, phrasing: .commandLine)
    }
}
