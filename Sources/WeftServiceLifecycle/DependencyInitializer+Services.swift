#if ServiceLifecycle
    public import Logging
    public import ServiceLifecycle
    public import UnixSignals
    public import Weft
    public import WeftInitializer

    extension DependencyInitializer {
        /// Brings a server app up and down: runs this initializer, then the services its result
        /// provides in a `ServiceGroup` until they end or a signal asks for a graceful shutdown,
        /// then shuts the container down, disposing its services in reverse order of creation.
        ///
        /// ```swift
        /// try await DependencyInitializer(createProcess: { ServerProcess() }, asyncSteps: steps)
        ///     .runServices(logger: logger) { result in
        ///         // e.g. a Hummingbird Application, whatever its factory: `services` may await
        ///         [.init(service: try await result.container.services.resolveAsync(HTTPServer.self))]
        ///     } container: { $0.container.services }
        /// ```
        ///
        /// The start-up is traced like every run (see ``DependencyInitializer``). The container is
        /// shut down whether the group ends normally or throws, and after every service returned,
        /// with `Container.shutdown(deadline:clock:)`: a `dispose()` that overruns its share of
        /// `shutdownDeadline` is abandoned (and logged, with the service's name), so that the
        /// process exits by the deadline. Pass `nil` to wait for every `dispose()` without limit:
        ///
        /// ```swift
        /// try await initializer.runServices(shutdownDeadline: .seconds(30), logger: logger) { result in
        ///     [.init(service: try await result.container.services.resolveAsync(HTTPServer.self))]
        /// } container: { $0.container.services }
        /// ```
        /// - Parameters:
        ///   - gracefulShutdownSignals: Signals that ask the services to finish: SIGTERM and SIGINT
        ///     by default.
        ///   - shutdownDeadline: The time disposing the container's services may take once the
        ///     services ended: 10 seconds by default; `nil` waits without limit.
        ///   - shutdownClock: The clock `shutdownDeadline` is measured on: `ContinuousClock` by
        ///     default; a test passes a manual one.
        ///   - logger: The group's logger.
        ///   - services: The services to run, from the initialization's result. It may `await`, so
        ///     a service with an `async` factory is resolved with `resolveAsync`.
        ///   - container: The container to shut down once the services ended.
        /// - Throws: ``InitializationFailure`` when start-up fails (no service is started then); what
        ///   the group throws; else a `ShutdownError` when disposing a service failed or was
        ///   abandoned at the deadline.
        public func runServices<C: Clock<Duration>>(
            gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint],
            shutdownDeadline: Duration? = .seconds(10),
            shutdownClock: C = ContinuousClock(),
            logger: Logger,
            services: (InitializationResult<Process>) async throws -> [ServiceGroupConfiguration.ServiceConfiguration],
            container: (InitializationResult<Process>) -> Container
        ) async throws {
            let result = try await run()
            let toShutDown = container(result)
            let outcome: Result<Void, any Error>
            do {
                var configuration = ServiceGroupConfiguration(services: try await services(result), logger: logger)
                configuration.gracefulShutdownSignals = gracefulShutdownSignals
                try await ServiceGroup(configuration: configuration).run()
                outcome = .success(())
            } catch {
                outcome = .failure(error)
            }
            do {
                if let shutdownDeadline {
                    try await toShutDown.shutdown(deadline: shutdownDeadline, clock: shutdownClock)
                } else {
                    try await toShutDown.shutdown()
                }
            } catch {
                logger.error("Disposing services failed: \(error)")
                if case .success = outcome { throw error }
            }
            try outcome.get()
        }
    }
#endif
