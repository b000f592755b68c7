import Dispatch

/// Whether the calling code runs on the main actor, asked without trapping.
///
/// The main actor's executor is the main dispatch queue, on Linux as on Apple platforms, so
/// code runs on the main actor exactly when it runs on that queue: a queue-specific value set
/// on the main queue answers, where `MainActor.assumeIsolated` would trap. Every creation a
/// main-actor factory makes is gated by this check.
enum MainActorIsolation {
    private static let key: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    /// Whether the caller runs on the main actor (the main queue, or a queue targeting it).
    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) != nil }

    /// Runs `factory`, a main-actor function, in place, where ``isCurrent`` says the caller
    /// runs on the main actor; elsewhere throws instead of running it.
    ///
    /// Does what `MainActor.assumeIsolated` does once it has checked — calls the function as a
    /// non-isolated one, which a synchronous function's representation allows — without its
    /// second check, which costs more than this one and traps where this throws.
    static func run<T: Sendable>(
        _ factory: @MainActor () throws -> T, key: ServiceKey
    ) throws -> T {
        guard isCurrent else { throw ResolutionError.requiresIsolation(key, path: []) }
        return try withoutActuallyEscaping(factory) { (factory: @escaping @MainActor () throws -> T) throws -> T in
            try TrustedCasts.nonisolated(factory)()
        }
    }
}
