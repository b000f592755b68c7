import Testing
import Weft

@Suite("ResolutionError")
struct ResolutionErrorTests {
    @Test("stays one reference wide, so typed throws through a deep resolution keep frames small")
    func layout() {
        #expect(MemoryLayout<ResolutionError>.size == MemoryLayout<AnyObject>.size)
    }

    @Test("each code carries its details and says what to do")
    func codes() {
        let a = ServiceKey(Int.self)
        let b = ServiceKey(String.self)
        let missing = ResolutionError.notRegistered(a, path: [b], suggestions: [ServiceKey(Int.self, name: "x")])
        #expect(missing.code == .notRegistered && missing.key == a && missing.path == [b])
        #expect(missing.description.contains("Register it with"))

        let cycle = ResolutionError.circularDependency(cycle: [a, b, a])
        #expect(cycle.code == .circularDependency && cycle.cycle == [a, b, a] && cycle.key == a)
        #expect(cycle.description.hasPrefix("Circular dependency: Int → String → Int."))

        struct Boom: Error {}
        let failed = ResolutionError.factoryFailed(a, path: [], underlying: Boom())
        #expect(failed.code == .factoryFailed && failed.underlyingError is Boom)

        let mismatch = ResolutionError.argumentMismatch(a, registered: Int.self, given: Void.self)
        #expect(mismatch.registeredArguments == Int.self && mismatch.givenArguments == Void.self)
        #expect(mismatch.description.contains("resolved with ()"))

        let codes: [ResolutionError.Code] = [
            .notRegistered, .circularDependency, .factoryFailed, .requiresAsync, .cancelled, .shutDown,
            .argumentMismatch,
        ]
        #expect(Set(codes).count == codes.count)
        #expect(codes.map(\.description).contains("requiresAsync"))
    }
}
