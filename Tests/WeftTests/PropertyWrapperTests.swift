import Testing

@testable import Weft

@Suite("Property wrappers")
struct PropertyWrapperTests {
    final class Screen {
        @Injected var logger: Logger?
        @Injected("audit") var audit: Logger?
        @Factory var service: Service = Service(id: -1)

        init(container: Container) {
            _logger = Injected(container: container)
            _audit = Injected("audit", container: container)
            _service = Factory(wrappedValue: Service(id: -1), container: container)
        }
    }

    @Test("@Injected resolves on first access, not before, and keeps the value")
    func injectedIsLazy() {
        let container = Container()
        let runs = Counter()
        container.register(Logger.self) {
            runs.increment()
            return ConsoleLogger(name: "lazy")
        }
        let screen = Screen(container: container)
        #expect(runs.value == 0)
        #expect(screen.logger?.name == "lazy")
        #expect(screen.logger?.name == "lazy")
        #expect(runs.value == 1)
    }

    @Test("@Injected reads nil while missing and resolves once registered; $ says why")
    func injectedMissing() {
        let container = Container()
        let screen = Screen(container: container)
        #expect(screen.audit == nil)
        #expect(throws: ResolutionError.self) { try screen.$audit.resolve() }
        container.register(Logger.self, name: "audit") { ConsoleLogger(name: "audit") }
        #expect(screen.audit?.name == "audit")
    }

    @Test("@Factory makes a new value on every access and falls back when unregistered")
    func factory() throws {
        let container = Container()
        let screen = Screen(container: container)
        #expect(screen.service.id == -1)
        #expect(throws: ResolutionError.self) { try screen.$service.make() }
        let counter = Counter()
        container.register(Service.self) {
            counter.increment()
            return Service(id: counter.value)
        }
        #expect(screen.service.id == 1)
        #expect(screen.service.id == 2)
        #expect(screen.service !== screen.service)
    }

    @Test("Wrappers without a container resolve from the task's shared container")
    func sharedContainer() async {
        await Container.withIsolatedShared {
            await Container.bootstrap { $0.register(Logger.self) { ConsoleLogger(name: "shared") } }
            let injected = Injected<Logger>()
            #expect(injected.wrappedValue?.name == "shared")
        }
    }
}

@Suite("Property wrappers for tests and back-references")
struct PropertyWrapperAdditionsTests {
    protocol Coordinator: AnyObject, Sendable {}
    final class AppCoordinator: Coordinator {}

    final class ChildModel {
        @WeakInjected var coordinator: (any Coordinator)?
        @Injected var logger: Logger?
        init(container: Container) {
            _coordinator = WeakInjected(container: container)
            _logger = Injected(container: container)
        }
    }

    /// A checked `Sendable` class: the wrappers held as `let`s (see `Injected`'s documentation).
    final class CheckedModel: Sendable {
        let logger: Injected<Logger>
        let coordinator: WeakInjected<any Coordinator>
        init(container: Container) {
            logger = Injected(container: container)
            coordinator = WeakInjected(container: container)
        }
    }

    @Test("@WeakInjected holds a back-reference weakly: it never keeps the coordinator alive")
    func weakInjected() {
        let container = Container()
        container.register((any Coordinator).self, lifetime: .weak) { AppCoordinator() }
        let model = ChildModel(container: container)
        var coordinator: (any Coordinator)? = try? container.require((any Coordinator).self)
        #expect(model.coordinator === coordinator)
        weak let released = coordinator
        coordinator = nil
        #expect(released == nil)
    }

    @Test("Factory test overrides: a settable @Injected replaces the value for one object; nil resolves again")
    func settableInjected() {
        let container = Container()
        container.register(Logger.self) { ConsoleLogger(name: "live") }
        let model = ChildModel(container: container)
        model.logger = ConsoleLogger(name: "fake")
        #expect(model.logger?.name == "fake")
        model.logger = nil
        #expect(model.logger?.name == "live")
    }

    @Test("A checked Sendable class holds the wrappers as lets and reads wrappedValue")
    func checkedSendable() async {
        let container = Container()
        container.register(Logger.self) { ConsoleLogger(name: "checked") }
        let model = CheckedModel(container: container)
        let name = await Task.detached { model.logger.wrappedValue?.name }.value
        #expect(name == "checked")
        #expect(model.coordinator.wrappedValue == nil)
    }
}
