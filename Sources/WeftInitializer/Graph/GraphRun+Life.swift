// A run's life: before ready, ready, ended; the one state every entry point switches over.

extension GraphRun {
    /// Where a run is in its life: the one state its entry points (its start, a step's end, a
    /// timer, a cancellation, the deadline, ready, the verdict) switch over.
    enum Life {
        /// Before ready.
        case starting(Starting)
        /// Ready: every step needed for ready ended, `heldBy` last (-1 with none that ran), and
        /// the steps after ready run. `isCancelled`: cancelled since; no step starts.
        case ready(heldBy: Int, isCancelled: Bool)
        /// The verdict is given: what attempts and timers report now is discarded.
        case ended(Verdict)
    }

    /// A run before ready.
    struct Starting {
        /// How many steps needed for ready have not ended.
        var remaining: Int
        /// Steps after ready whose prerequisites finished: they start at ready.
        var deferred: [Int] = []
        /// The timer of the run's deadline, which bounds the time to ready.
        var deadline: Task<Void, Never>?
        /// Cancelled: no step starts.
        var isCancelled = false
    }
}

extension GraphRun.Life {
    /// Whether the verdict is still to be given.
    var isOpen: Bool {
        if case .ended = self { false } else { true }
    }

    /// Whether the run was cancelled: no step starts.
    var isCancelled: Bool {
        switch self {
        case .starting(let starting): starting.isCancelled
        case .ready(_, let isCancelled): isCancelled
        case .ended: true
        }
    }

    /// Marks an open run cancelled.
    mutating func markCancelled() {
        switch self {
        case .starting: whileStarting { $0.isCancelled = true }
        case .ready(let heldBy, _): self = .ready(heldBy: heldBy, isCancelled: true)
        case .ended: break
        }
    }

    /// Changes the run before ready with `change`; nothing after. The payload is moved out
    /// first, so that its arrays are changed in place rather than copied.
    mutating func whileStarting(_ change: (inout GraphRun.Starting) -> Void) {
        guard case .starting(var starting) = self else { return }
        self = .ready(heldBy: -1, isCancelled: false)
        change(&starting)
        self = .starting(starting)
    }
}
