import BenchmarkFixtures

/// The type registered 10,000 times under distinct names.
final class RegisteredService: Sendable {}

/// Weft's async singleton: registered with an `async` factory, resolved with `resolveAsync`.
final class AsyncCachedService: Sendable {}
