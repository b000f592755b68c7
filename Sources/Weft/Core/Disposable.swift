import WeftPrimitives

/// A service that holds resources to release when its container shuts down: connections,
/// files, servers, timers.
///
/// ```swift
/// final class Database: Disposable {
///     func dispose() async throws { try await pool.close() }
/// }
/// container.register(Database.self, lifetime: .singleton) { try Database.open() }
/// // …
/// try await container.shutdown()   // disposes the database, once
/// ```
public protocol Disposable: Sendable {
    /// Releases what the service holds. Called once, by ``Container/shutdown()`` or
    /// ``Container/shutdown(deadline:clock:)``.
    ///
    /// Under a deadline, the task it runs in is cancelled when its share of the time is up;
    /// return soon after (check `Task.isCancelled`, or await cancellable work).
    func dispose() async throws
}

/// What went wrong while a container disposed its services: every failure and every abandoned
/// disposal, not only the first.
///
/// ```swift
/// do {
///     try await container.shutdown(deadline: .seconds(5))
/// } catch {
///     for stuck in error.abandoned { logger.warning("\(stuck)") }
///     for failure in error.failures { logger.error("\(failure)") }
/// }
/// ```
public struct ShutdownError: Error, Sendable, CustomStringConvertible {
    /// A service whose ``Disposable/dispose()`` threw.
    ///
    /// ```swift
    /// for failure in error.failures { print(failure.key, failure.error) }
    /// ```
    public struct Failure: Sendable, CustomStringConvertible {
        /// The key the service was registered under.
        public let key: ServiceKey
        /// What `dispose()` threw.
        public let error: any Error
        /// Where the key was registered, when the container still knows it.
        public let site: RegistrationSite?

        init(key: ServiceKey, error: any Error, site: RegistrationSite? = nil) {
            (self.key, self.error, self.site) = (key, error, site)
        }

        /// The service, where it was registered, and what `dispose()` threw:
        /// `Database (registered at App/main.swift:12): dispose() threw: closed twice`.
        public var description: String {
            "\(ShutdownError.name(key, site)): dispose() threw: \(error)"
        }
    }

    /// A service whose ``Disposable/dispose()`` was abandoned by
    /// ``Container/shutdown(deadline:clock:)``: its task was cancelled and is no longer awaited,
    /// so the shutdown could return by its deadline.
    ///
    /// The abandoned `dispose()` may still be running, or never return; it is not awaited again,
    /// and what it throws is not reported.
    ///
    /// ```swift
    /// for stuck in error.abandoned {
    ///     print(stuck.key, stuck.site as Any, stuck.share as Any)
    /// }
    /// ```
    public struct Abandoned: Sendable, CustomStringConvertible {
        /// Why a disposal was abandoned.
        ///
        /// ```swift
        /// if stuck.reason == .shareElapsed { print("\(stuck.key) is too slow to dispose") }
        /// ```
        public enum Reason: Sendable, Hashable {
            /// `dispose()` did not return within its ``Abandoned/share`` of the deadline.
            case shareElapsed
            /// The deadline had passed before its turn (the disposals before it overran their
            /// shares by the scheduler's slack): its share was zero, so `dispose()` was started
            /// in a cancelled task and not awaited.
            case noTimeLeft
            /// The deadline of a later `shutdown(deadline:)` call, sharing this disposal, passed
            /// while it ran or before its turn: it was cancelled and not awaited, as every
            /// disposal after it.
            case laterDeadline
        }

        /// The key the service was registered under.
        public let key: ServiceKey
        /// Where the key was registered, when the container still knows it.
        public let site: RegistrationSite?
        /// The share of the deadline the disposal was given: the time left when its turn came,
        /// divided by the disposals left. `nil` when the disposal had no deadline of its own (a
        /// ``Container/shutdown()`` call started it) and a later call's deadline ended it.
        public let share: Duration?
        /// Why it was abandoned.
        public let reason: Reason

        init(key: ServiceKey, site: RegistrationSite? = nil, share: Duration?, reason: Reason) {
            (self.key, self.site, self.share, self.reason) = (key, site, share, reason)
        }

        /// The service, where it was registered, the time it had, and the fix:
        /// `Database (registered at App/main.swift:12) did not return from dispose() within
        /// its share of the shutdown deadline, 2.5 s: …`.
        public var description: String {
            let service = ShutdownError.name(key, site)
            let shareText = share.map { "\($0.secondsText)" } ?? "no share of its own"
            switch reason {
            case .shareElapsed:
                return "\(service) did not return from dispose() within its share of the shutdown deadline, "
                    + "\(shareText): it was cancelled and abandoned. Make dispose() return within its share, "
                    + "or give shutdown a longer deadline."
            case .noTimeLeft:
                return "\(service) had no time left: the shutdown deadline had passed before its turn, so "
                    + "dispose() was started cancelled and abandoned. Make the disposals before it return within "
                    + "their shares, or give shutdown a longer deadline."
            case .laterDeadline:
                return "\(service) was cancelled and abandoned when the deadline of a later shutdown(deadline:) "
                    + "call passed (it had \(shareText)). Make dispose() return within its share, or give "
                    + "shutdown a longer deadline."
            }
        }
    }

    /// Every disposal that threw, in the order they ran. An abandoned disposal is never here,
    /// even if it throws later.
    public let failures: [Failure]

    /// Every disposal ``Container/shutdown(deadline:clock:)`` abandoned, in the order they
    /// started; always empty after a ``Container/shutdown()`` that no call with a deadline
    /// joined.
    public let abandoned: [Abandoned]

    init(failures: [Failure], abandoned: [Abandoned] = []) {
        (self.failures, self.abandoned) = (failures, abandoned)
    }

    /// Each failure and each abandoned disposal, with where the service was registered.
    public var description: String {
        var counts: [String] = []
        if !failures.isEmpty { counts.append("\(failures.count) service(s) failed") }
        if !abandoned.isEmpty { counts.append("\(abandoned.count) service(s) abandoned") }
        let items = failures.map(\.description) + abandoned.map(\.description)
        return "Disposing services: \(counts.joined(separator: ", ")): " + items.joined(separator: "; ")
    }

    /// `key`, and where it was registered if known.
    static func name(_ key: ServiceKey, _ site: RegistrationSite?) -> String {
        site.map { "\(key) (registered at \($0))" } ?? "\(key)"
    }
}

extension Container {
    /// Disposes every ``Disposable`` value this container created and cached — singletons and,
    /// in a scope, its scoped values — exactly once, in reverse order of creation, then
    /// refuses to resolve anything (``ResolutionError/shutDown(_:)``).
    ///
    /// ```swift
    /// try await container.shutdown()   // waits for every dispose(), however long
    /// ```
    ///
    /// A failing `dispose()` does not stop the others: every failure is collected and thrown
    /// together. This waits for each `dispose()` without limit: one that never returns holds
    /// the caller forever. Where the process must exit, use ``shutdown(deadline:clock:)``.
    ///
    /// Concurrent calls share one disposal and its outcome: a call made while another runs
    /// starts nothing, and waits for the same outcome; a later ``shutdown(deadline:clock:)``
    /// can end it at its own deadline. `instance:` registrations
    /// are the caller's to dispose; `owning:` ones (``register(_:name:also:owning:file:line:)``)
    /// are disposed here, in order with what was created; a value whose registration was
    /// replaced is still disposed here. Shutting down a container leaves its scopes and children running: they keep their
    /// scoped values, and no longer hand out its singletons.
    ///
    /// A factory still running when this is called is not waited for: when it returns, its
    /// value is not cached, a ``Disposable`` one is disposed at once, and the resolves waiting
    /// for it fail with ``ResolutionError/shutDown(_:)``.
    /// - Throws: ``ShutdownError`` listing each service whose `dispose()` threw (and, when a
    ///   later call's deadline ended the disposal, those abandoned).
    public func shutdown() async throws(ShutdownError) {
        try await shutdown(by: DisposalDeadline<ContinuousClock>?.none)
    }

    /// Disposes every ``Disposable`` value as ``shutdown()`` does, in reverse order of
    /// creation, and returns by `deadline` (plus the scheduler's slack) whatever a `dispose()`
    /// does: one that overruns its share of the time is abandoned.
    ///
    /// ```swift
    /// // On SIGTERM: the process exits within 5 seconds, even if a dispose() never returns.
    /// do {
    ///     try await container.shutdown(deadline: .seconds(5))
    /// } catch {
    ///     logger.warning("\(error)")  // names each abandoned service and the fix
    /// }
    /// ```
    ///
    /// **Shares.** Each disposal, when its turn comes, gets a share of the time: the time left
    /// until the deadline divided by the disposals left, itself included. With 9 seconds and
    /// three disposals, the first has 3 s; if it returns at once the second has 4.5 s, the
    /// third whatever the second left. A `dispose()` that returns early leaves its time to the
    /// ones after it; the last one has all that is left.
    ///
    /// **Abandoned.** A `dispose()` that has not returned when its share is up is abandoned: the
    /// task it runs in is cancelled and no longer awaited, and the next disposal starts. It may
    /// go on running after this returns (the one piece of work a shutdown leaves behind, so that
    /// the process can exit); what it throws then is dropped. When the deadline has already
    /// passed at a disposal's turn (the ones before it overran by the scheduler's slack), its
    /// `dispose()` is still called, in a cancelled task, and not awaited. So every `dispose()`
    /// is called exactly once, whatever the deadline.
    ///
    /// **Concurrent calls** share one disposal and its outcome, as with ``shutdown()``. The
    /// disposal's shares come from the call that started it. A later call with a deadline does
    /// not share the time anew, but ends the disposal at its own deadline if that comes first:
    /// the `dispose()` then running, and every one after it, is abandoned
    /// (``ShutdownError/Abandoned/Reason/laterDeadline``), and every call returns with that
    /// outcome. So a ``shutdown()`` already under way can be bounded by a second call, on a
    /// second SIGTERM say; a later call with a later deadline changes nothing.
    ///
    /// A `dispose()` that blocks its thread instead of suspending cannot be abandoned on time:
    /// the cancellation reaches it only when it suspends.
    ///
    /// - Parameters:
    ///   - deadline: The time the whole shutdown may take, from this call.
    ///   - clock: The clock the deadline and the shares are measured on: `ContinuousClock` by
    ///     default; a test passes a manual one.
    /// - Throws: ``ShutdownError`` listing each service whose `dispose()` threw and each one
    ///   abandoned (``ShutdownError/abandoned``), with where it was registered and the time it
    ///   had.
    public func shutdown<C: Clock<Duration>>(
        deadline: Duration, clock: C = ContinuousClock()
    ) async throws(ShutdownError) {
        try await shutdown(by: DisposalDeadline(clock: clock, instant: clock.now.advanced(by: deadline)))
    }

    /// The shutdown both public calls make: starts the disposal, or joins the one running
    /// (then ending it at `deadline` if that comes first), and throws its outcome.
    private func shutdown<C: Clock<Duration>>(by deadline: DisposalDeadline<C>?) async throws(ShutdownError) {
        let (disposal, joined, keys) = state.withLock { state -> (Disposal, Bool, [ServiceKey]) in
            if let running = state.shutdown { return (running, true, []) }
            let disposables = state.cache.takeDisposables().reversed().compactMap { key, value in
                (value as? any Disposable).map { (key: key, disposable: $0) }
            }
            // Readers of the lock-free snapshot must miss from now on.
            _ = state.forget(Array(state.cache.allInstances().keys), in: snapshot)
            // Nor may a transient be run lock-free from a snapshot.
            state.cache.close(to: snapshot)
            let (events, continuation) = AsyncStream.makeStream(of: DisposalEvent.self)
            let task = Task { await self.dispose(disposables, by: deadline, events: events, continuation) }
            let disposal = Disposal(task: task, events: continuation)
            state.shutdown = disposal
            // Only singletons and weak values are this container's; scoped ones below are theirs.
            return (disposal, false, state.registrations.values.filter(\.lifetime.resolvesFromOwner).map(\.key))
        }
        // Scopes below may keep this container's singletons: they must not hand them out now.
        if !keys.isEmpty { forgetInDescendants(keys) }
        let error: ShutdownError?
        if joined, let deadline {
            // The disposal runs on the first call's terms; this call's deadline may end it sooner.
            error = await withTaskGroup(of: Void.self, returning: ShutdownError?.self) { group in
                group.addTask {
                    do {
                        try await deadline.clock.sleep(until: deadline.instant, tolerance: nil)
                        disposal.events.yield(.cutOff)
                    } catch {
                        // Cancelled: the disposal ended first.
                    }
                }
                let error = await disposal.task.value
                group.cancelAll()
                return error
            }
        } else {
            error = await disposal.task.value
        }
        if let error { throw error }
    }
}
