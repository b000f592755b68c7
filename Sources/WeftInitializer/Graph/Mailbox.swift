import WeftPrimitives

/// Where attempts and timers post what happened, from any thread, for the scheduler on the
/// main actor; it takes everything posted since it last looked, in one batch.
///
/// Posting resumes a waiting scheduler straight onto its actor: no hop through the global
/// executor, one wake-up per batch.
final class Mailbox<Message: Sendable>: Sendable {
    private struct State {
        var messages: [Message] = []
        var waiter: CheckedContinuation<[Message], Never>?
        var isClosed = false

        /// The messages, leaving none: the caller gets the buffer, posting starts a new one.
        mutating func takeMessages() -> [Message] {
            var taken: [Message] = []
            swap(&taken, &messages)
            return taken
        }
    }

    private let state = Locked(State())

    /// Delivers `message`, unless the mailbox is closed.
    func post(_ message: Message) {
        let waiter = state.withLock { state -> CheckedContinuation<[Message], Never>? in
            guard !state.isClosed else { return nil }
            guard let waiter = state.waiter else {
                state.messages.append(message)
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: [message])
    }

    /// Everything posted since the last call, waiting for at least one message; empty once
    /// the mailbox is closed.
    func take(isolation: isolated (any Actor)? = #isolation) async -> [Message] {
        let ready = state.withLock { state -> [Message]? in
            guard state.messages.isEmpty, !state.isClosed else { return state.takeMessages() }
            return nil
        }
        if let ready { return ready }
        return await withCheckedContinuation(isolation: isolation) { continuation in
            let ready = state.withLock { state -> [Message]? in
                guard state.messages.isEmpty, !state.isClosed else { return state.takeMessages() }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Drops what is posted from now on, and ends a wait with no message.
    func close() {
        let waiter = state.withLock { state -> CheckedContinuation<[Message], Never>? in
            state.isClosed = true
            state.messages.removeAll()
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: [])
    }
}
