import Testing
import Weft
import WeftTesting

/// Where the two tests of ``ParallelTests`` wait for each other.
private let parallelMeeting = Meeting()
/// Where the two tests of ``SuiteTraitTests`` wait for each other.
private let suiteMeeting = Meeting()

/// Checks what a test with the trait sees once the other test of its pair has registered its
/// own doubles (when the tests run in parallel, as they do by default).
private func expectOwnDoubles(_ me: String, other: String, meeting: Meeting) async throws {
    _ = await meeting.meet(me, other, within: .seconds(5))
    #expect(try Container.shared.require(Greeting.self) == Greeting(owner: me))
    #expect(try Container.shared.require(Greeting.self, name: me) == Greeting(owner: me))
    #expect(Container.shared.resolve(Greeting.self, name: other) == nil)
    // Child tasks see the test's container too; detached tasks see the global one.
    async let fromChild = Container.shared.resolve(Greeting.self)
    #expect(await fromChild == Greeting(owner: me))
    #expect(await Task.detached { Container.shared.resolve(Greeting.self, name: me) }.value == nil)
}

@Suite("The isolatedContainer trait", .timeLimit(.minutes(1)))
struct IsolatedContainerTraitTests {
    // doc begins
    @Test(.isolatedContainer { $0.register((any Payments).self, lifetime: .singleton) { FakePayments() } })
    func checkoutChargesTheFake() async throws {
        try await Checkout().pay(cents: 500)  // Checkout resolves its Payments from Container.shared
        let payments = try #require(Container.shared.resolve((any Payments).self) as? FakePayments)
        #expect(await payments.charged == [500])
    }
    // doc ends

    @Test("with a configuration, the test's container is bootstrapped before the test runs")
    func configuredIsBootstrapped() async throws {
        let trait: IsolatedContainerTrait = .isolatedContainer {
            $0.register(Greeting.self) { Greeting(owner: "trait") }
        }
        let test = try #require(Test.current)
        try await trait.provideScope(for: test, testCase: Test.Case.current) {
            try Container.ensureBootstrapped()
            // The code under test bootstrapping if needed leaves the doubles in place.
            let bootstrapped = await Container.bootstrapIfNeeded {
                $0.register(Greeting.self) { Greeting(owner: "app") }
            }
            #expect(!bootstrapped)
            #expect(try Container.shared.require(Greeting.self) == Greeting(owner: "trait"))
        }
    }

    @Test("without a configuration, the test's container is empty and not bootstrapped")
    func plainIsNotBootstrapped() async throws {
        let trait: IsolatedContainerTrait = .isolatedContainer
        let test = try #require(Test.current)
        try await trait.provideScope(for: test, testCase: Test.Case.current) {
            #expect(throws: NotBootstrappedError.self) { try Container.ensureBootstrapped() }
            #expect(Container.shared.resolve(Greeting.self) == nil)
            let bootstrapped = await Container.bootstrapIfNeeded {
                $0.register(Greeting.self) { Greeting(owner: "app") }
            }
            #expect(bootstrapped)
            let greeting = try Container.shared.require(Greeting.self)
            #expect(greeting == Greeting(owner: "app"))
        }
    }

    @Test("a configuration that throws fails the scope with its error, and the test does not run")
    func failingConfiguration() async throws {
        struct Unconfigurable: Error, Equatable {}
        let trait: IsolatedContainerTrait = .isolatedContainer { _ in throw Unconfigurable() }
        let test = try #require(Test.current)
        await #expect(throws: Unconfigurable()) {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                Issue.record("the test ran although its container could not be configured")
            }
        }
    }

    @Test("nothing registered, bootstrapped or overridden in the scope reaches Container.shared outside it")
    func nothingLeaks() async throws {
        let trait: IsolatedContainerTrait = .isolatedContainer {
            $0.register(Greeting.self) { Greeting(owner: "inside") }
        }
        let test = try #require(Test.current)
        try await trait.provideScope(for: test, testCase: Test.Case.current) {
            await Container.update { $0.register(Greeting.self, name: "updated") { Greeting(owner: "inside") } }
            _ = Container.shared.override(Greeting.self, name: "overridden") { Greeting(owner: "inside") }
            #expect(Container.shared.resolve(Greeting.self) == Greeting(owner: "inside"))
            #expect(await Task.detached { Container.shared.resolve(Greeting.self) }.value == nil)
        }
        #expect(Container.shared.resolve(Greeting.self) == nil)
        #expect(Container.shared.resolve(Greeting.self, name: "updated") == nil)
        #expect(Container.shared.resolve(Greeting.self, name: "overridden") == nil)
        #expect(throws: NotBootstrappedError.self) { try Container.ensureBootstrapped() }
    }

    @Test("two scopes running at once never see each other's doubles")
    func concurrentScopesAreApart() async throws {
        let test = try #require(Test.current)
        let meeting = Meeting()
        try await withThrowingTaskGroup { group in
            for (me, other) in [("left", "right"), ("right", "left")] {
                let trait: IsolatedContainerTrait = .isolatedContainer { container in
                    container.register(Greeting.self) { Greeting(owner: me) }
                }
                group.addTask {
                    try await trait.provideScope(for: test, testCase: nil) {
                        _ = Container.shared.override(Greeting.self, name: me) { Greeting(owner: me) }
                        // Both scopes are open, each with its doubles, when they look.
                        #expect(await meeting.meet(me, other, within: .seconds(30)))
                        try await expectOwnDoubles(me, other: other, meeting: meeting)
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}

/// Two tests that Swift Testing runs in parallel, each with its own doubles in
/// `Container.shared`.
@Suite("Parallel tests with the isolatedContainer trait", .timeLimit(.minutes(1)))
struct ParallelTests {
    @Test(.isolatedContainer { $0.register(Greeting.self) { Greeting(owner: "first") } })
    func first() async throws {
        await Container.update { $0.register(Greeting.self, name: "first") { Greeting(owner: "first") } }
        try await expectOwnDoubles("first", other: "second", meeting: parallelMeeting)
    }

    @Test(.isolatedContainer { $0.register(Greeting.self) { Greeting(owner: "second") } })
    func second() async throws {
        _ = Container.shared.override(Greeting.self, name: "second") { Greeting(owner: "second") }
        try await expectOwnDoubles("second", other: "first", meeting: parallelMeeting)
    }
}

/// The trait on a suite gives each of its tests a container of its own.
@Suite(
    "The isolatedContainer trait on a suite",
    .timeLimit(.minutes(1)),
    .isolatedContainer { $0.register(Greeting.self) { Greeting(owner: "suite") } }
)
struct SuiteTraitTests {
    @Test func one() async throws {
        #expect(try Container.shared.require(Greeting.self) == Greeting(owner: "suite"))
        _ = Container.shared.override(Greeting.self) { Greeting(owner: "one") }
        _ = Container.shared.override(Greeting.self, name: "one") { Greeting(owner: "one") }
        try await expectOwnDoubles("one", other: "two", meeting: suiteMeeting)
    }

    @Test func two() async throws {
        #expect(try Container.shared.require(Greeting.self) == Greeting(owner: "suite"))
        await Container.update { container in
            container.register(Greeting.self) { Greeting(owner: "two") }
            container.register(Greeting.self, name: "two") { Greeting(owner: "two") }
        }
        try await expectOwnDoubles("two", other: "one", meeting: suiteMeeting)
    }

    @Test(
        "a test's own trait replaces the suite's",
        .isolatedContainer { $0.register(Greeting.self) { Greeting(owner: "own") } })
    func own() throws {
        #expect(try Container.shared.require(Greeting.self) == Greeting(owner: "own"))
    }
}
