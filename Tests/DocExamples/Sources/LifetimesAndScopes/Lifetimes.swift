import Weft

/// The overview's table, as registrations.
func registerEveryLifetime() {
    // doc begins
    let container = Container()
    container.register(Clock.self) { SystemClock() }  // transient
    container.register(Database.self, lifetime: .singleton) { _ in try await Database.open() }
    container.register(Session.self, lifetime: .scoped) { Session() }
    container.register(Player.self, lifetime: .weak) { Player() }
    container.register(UnitOfWork.self, lifetime: .graph) { UnitOfWork() }
    // doc ends
    let lifetimes = container.registrations.map { "\($0.key): \($0.lifetime)" }
    precondition(
        lifetimes == [
            "Clock: transient", "Database: singleton", "Player: weak", "Session: scoped", "UnitOfWork: graph",
        ], "\(lifetimes)")
}

/// Scoped: one value per scope.
func oneSessionPerScope(_ container: Container) throws {
    // doc begins
    container.register(Session.self, lifetime: .scoped) { Session() }
    let first = container.createScope()
    let second = container.createScope()
    print(try first.require(Session.self) === first.require(Session.self))  // true
    print(try first.require(Session.self) === second.require(Session.self))  // false
    // doc ends
}

/// The default lifetime.
func singletonsByDefault() {
    // doc begins
    let singletons = Container()
    singletons.defaultLifetime = .singleton
    singletons.register(Database.self) { _ in try await Database.open() }  // a singleton
    // doc ends
    precondition(singletons.registrations.map(\.lifetime) == [.singleton])
}

/// A child resolves its parent's registrations.
func parentAndChild() async throws {
    // doc begins
    let app = Container()
    app.register(Database.self, lifetime: .singleton) { _ in try await Database.open() }
    let feature = Container(parent: app)
    feature.register(Logger.self) { FeatureLogger() }
    let database = try await feature.resolveAsync(Database.self)  // the app's singleton
    print(try await app.resolveAsync(Database.self) === database)  // true
    // doc ends
}
