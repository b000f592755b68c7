import Testing
import WeftPrimitives

@testable import Weft

#if canImport(Glibc)
    /// glibc's `malloc_usable_size`, which its Swift module does not export.
    @_silgen_name("malloc_usable_size")
    private func mallocUsableSize(_ pointer: UnsafeMutableRawPointer) -> Int
#endif

/// A registration keeps decorators and hooks in its factory's storage (`Registration.Body`),
/// so that a registration object, with its registration site, stays in the allocator's 96-byte class.
@Suite("Registration layout")
struct RegistrationLayoutTests {
    @Test("A factory with extras takes no more room than a factory; a registration's fields fit in 72 bytes")
    func layout() {
        #expect(MemoryLayout<Registration.Body>.size == MemoryLayout<Registration.Factory>.size)
        // With the 16-byte object header, at most 88 bytes: glibc's 96-byte chunks. The factory,
        // the lifetime and whether the key's type is a class, aligned for the site's line (4
        // bytes), then the key and the site's file, a string.
        let small = MemoryLayout<Registration.Body>.size + MemoryLayout<Lifetime>.size + MemoryLayout<Bool>.size
        let fields =
            (small + 3) / 4 * 4 + MemoryLayout<UInt32>.size + MemoryLayout<ServiceKey>.size
            + MemoryLayout<String>.size
        #expect(fields <= 72, "fields take \(fields) bytes")
        #if canImport(Glibc)
            // What the allocator handed out: at most 88 usable bytes is glibc's 96-byte chunk (a
            // sanitizer's allocator reports the 88 bytes asked for).
            let registration = Registration(
                key: ServiceKey(Service.self, name: "n"), lifetime: .singleton, factory: .sync { _, _ in Service() })
            let usable = withExtendedLifetime(registration) {
                mallocUsableSize(Unmanaged.passUnretained(registration).toOpaque())
            }
            #expect(usable <= 88, "\(usable) usable bytes")
        #endif
    }

    @Test("Another lifetime keeps a registration's decorators and hooks, and moves transient hooks into the factory")
    func withLifetimeKeepsExtras() throws {
        let key = ServiceKey(Service.self)
        let hooked = Locked(0)
        let made: Registration.Factory = .sync { _, _ in Service(id: 1) }
        let hook: Registration.Hook = { _, _ in hooked.withLock { $0 += 1 } }
        let singleton = Registration(
            key: key, lifetime: .singleton, made: made, onCreated: [hook],
            site: RegistrationSite(fileID: "A/B.swift", line: 3), keyTypeIsClass: false)
        let transient = singleton.withLifetime(.transient)

        #expect(transient.lifetime == .transient)
        #expect(transient.onCreated.count == 1)
        #expect(transient.site == RegistrationSite(fileID: "A/B.swift", line: 3))
        guard case .sync(let runsHooks) = transient.factory.code,
            case .sync(let runsFactoryOnly) = singleton.factory.code
        else {
            Issue.record("expected synchronous factories")
            return
        }
        let container = Container()
        _ = try runsFactoryOnly(Resolver(container), nil)
        #expect(hooked.withLock { $0 } == 0, "a cached lifetime's hooks run after caching, not in its factory")
        _ = try runsHooks(Resolver(container), nil)
        #expect(hooked.withLock { $0 } == 1, "a transient's hooks run inside its factory")

        let plain = Registration(key: key, lifetime: .singleton, factory: made).withLifetime(.scoped)
        #expect(plain.lifetime == .scoped)
        #expect(plain.onCreated.isEmpty)
    }
}
