/// A main-actor object that collects the pieces of a dependency container while the
/// initializer runs, and assembles the finished container at the end.
///
/// Conforming classes are isolated to the main actor, so every read and write of their
/// properties is serialized there. Synchronous steps run on the main actor and touch the
/// process directly; asynchronous steps run off the main actor and reach it only through an
/// explicit `await` (a main-actor method, `MainActor.run`, or a value returned to
/// ``AsyncInitializationStep/init(title:type:timeout:priority:produce:apply:)``).
/// A data race on the process therefore cannot be written.
///
/// ```swift
/// @MainActor
/// final class AppProcess: DependencyInitializationProcess {
///     var environment: Environment?
///     var repository: Repository?
///
///     var toContainer: AppDependencies {
///         get throws {
///             guard let environment, let repository else { throw MissingPiece() }
///             return AppDependencies(environment: environment, repository: repository)
///         }
///     }
/// }
/// ```
@MainActor
public protocol DependencyInitializationProcess: AnyObject, Sendable {
    /// The container the process assembles once every step has finished.
    associatedtype Container

    /// Assembles the container from the collected pieces.
    ///
    /// Throw a descriptive error when a piece is missing instead of force-unwrapping it;
    /// the initializer reports it as a failure of the container phase.
    var toContainer: Container { get throws }
}
