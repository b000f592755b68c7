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
        container.register(Logger.self) { runs.increment(); return ConsoleLogger(name: "lazy") }
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
        container.register(Service.self) { counter.increment(); return Service(id: counter.value) }
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
