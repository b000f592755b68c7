// The types the article uses without showing them.
import Foundation

protocol API: Sendable {}
struct LiveAPI: API {}

/// A value behind a lock: `@unchecked Sendable` because every access takes the lock.
final class Guarded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    var wrapped: Value {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

/// Holds its child, set after both are made; `Sendable`, so the reference sits behind a lock.
final class Parent: Sendable {
    private let storage = Guarded<Child?>(nil)
    var child: Child? {
        get { storage.wrapped }
        set { storage.wrapped = newValue }
    }
}

/// Holds its parent, set after both are made.
final class Child: Sendable {
    private let storage = Guarded<Parent?>(nil)
    var parent: Parent? {
        get { storage.wrapped }
        set { storage.wrapped = newValue }
    }
}

@MainActor final class ProfileModel {
    let api: any API
    init(api: any API) { self.api = api }
}
