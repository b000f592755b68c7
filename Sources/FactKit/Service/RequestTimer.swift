/// What ends a ``FactService`` request at its timeout: a sleep to the deadline that races the
/// request, and the time limit AsyncHTTPClient itself is given, a backstop in real time.
///
/// The app's is ``continuous``: both end at the timeout, on the continuous clock. A test's
/// (``on(_:backstop:)``) sleeps on a clock the test moves, so a timeout happens when the test
/// says and a busy machine cannot bring it early; AsyncHTTPClient then gets a long real-time
/// backstop that the test ends long before.
struct RequestTimer: Sendable {
    /// Starts a timeout of the given length: returns the sleep that ends at its deadline (the
    /// deadline is fixed when the timeout starts, not when the sleep begins).
    let start: @Sendable (Duration) -> @Sendable () async throws -> Void
    /// The real time AsyncHTTPClient gives a request whose timeout is the given one.
    let transportLimit: @Sendable (Duration) -> Duration

    /// Both on the continuous clock: the request ends at its timeout, whichever notices first.
    static let continuous = RequestTimer(
        start: { timeout in
            let deadline = ContinuousClock.now + timeout
            return { try await Task.sleep(until: deadline, clock: .continuous) }
        },
        transportLimit: { $0 })

    /// The timeout on `clock`; AsyncHTTPClient gets `backstop` of real time whatever the timeout.
    static func on<C: Clock>(_ clock: C, backstop: Duration) -> RequestTimer where C.Duration == Duration {
        RequestTimer(
            start: { timeout in
                let deadline = clock.now.advanced(by: timeout)
                return { try await clock.sleep(until: deadline, tolerance: nil) }
            },
            transportLimit: { _ in backstop })
    }
}
