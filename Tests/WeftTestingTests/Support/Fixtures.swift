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

    func arrive(_ name: String) {
        arrived.insert(name)
    }

    func hasArrived(_ name: String) -> Bool {
        arrived.contains(name)
    }

    /// Says `me` has arrived and waits until `other` has too; `false` when `other` has not
    /// arrived within `limit` of real time (tests run one at a time, for example).
    func meet(_ me: String, _ other: String, within limit: Duration) async -> Bool {
        arrive(me)
        let giveUp = ContinuousClock.now + limit
        while !hasArrived(other) {
            guard ContinuousClock.now < giveUp else { return false }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return true
    }
}
