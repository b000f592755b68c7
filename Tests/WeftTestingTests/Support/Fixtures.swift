import Weft

/// Takes payments; the tests register ``FakePayments`` for it.
protocol Payments: Sendable {
    func charge(cents: Int) async throws
}

/// Records what it was asked to charge.
actor FakePayments: Payments {
    private(set) var charged: [Int] = []

    func charge(cents: Int) {
        charged.append(cents)
    }
}

/// Pays through the `Payments` of `Container.shared`, as app code does.
final class Checkout: Sendable {
    private let payments = Injected<any Payments>()

    func pay(cents: Int) async throws {
        try await payments.resolve().charge(cents: cents)
    }
}

/// Needs `Payments`: a container with `Receipts` but no `Payments` is invalid.
struct Receipts: Sendable {
    let payments: any Payments
}

/// A test double that says which test registered it.
struct Greeting: Sendable, Equatable {
    let owner: String
}

/// Records who has arrived, so that tests can wait for each other.
actor Meeting {
    private var arrived: Set<String> = []
    /// Those waiting, by whom they wait for, each with the number that tells it from another.
    private var waiting: [String: [(id: Int, continuation: CheckedContinuation<Bool, Never>)]] = [:]
    private var nextID = 0

    func arrive(_ name: String) {
        arrived.insert(name)
        for waiter in waiting.removeValue(forKey: name) ?? [] { waiter.continuation.resume(returning: true) }
    }

    func hasArrived(_ name: String) -> Bool {
        arrived.contains(name)
    }

    /// Says `me` has arrived and waits until `other` has too, woken by its arrival; `false` when
    /// `other` has not arrived within `limit` of real time (the tests run one at a time, for
    /// example, as under ThreadSanitizer): a bound on the wait, never a deadline to beat.
    func meet(_ me: String, _ other: String, within limit: Duration) async -> Bool {
        arrive(me)
        if hasArrived(other) { return true }
        let id = nextID
        nextID += 1
        let timer = Task {
            try await Task.sleep(for: limit)
            self.giveUp(id, waitingFor: other)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            waiting[other, default: []].append((id, continuation))
        }
    }

    /// Ends the wait `id` for `other` with `false`, if it is still waiting.
    private func giveUp(_ id: Int, waitingFor other: String) {
        guard let index = waiting[other]?.firstIndex(where: { $0.id == id }) else { return }
        waiting[other]?.remove(at: index).continuation.resume(returning: false)
    }
}
