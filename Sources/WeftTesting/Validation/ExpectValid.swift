// Swift Testing ships with the toolchain on Linux and with Xcode; macOS's Command Line Tools
// alone may lack it, and then only ManualClock is built.
#if canImport(Testing)
    public import Testing
    public import Weft

    /// Validates `container` and fails the current test with one issue per problem found.
    ///
    /// It runs `container.validate()`, which resolves every registration in a throwaway copy of the
    /// container, and records each problem of the report as an issue whose comment is the
    /// problem's description: a missing registration, a cycle, a captive dependency, a factory that
    /// threw, each with the services concerned. A valid container records nothing.
    ///
    /// ```swift
    /// @Test func theAppConfigurationResolves() async throws {
    ///     let container = Container()
    ///     try await container.install([CoreModule(), NetworkModule()])
    ///     await expectValid(container)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - container: The container to validate.
    ///   - sourceLocation: Where the issues are reported: by default, the call.
    /// - Returns: The report, for further checks of its problems or its graph.
    @discardableResult
    public func expectValid(
        _ container: Container,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> ValidationReport {
        let report = await container.validate()
        for problem in report.problems {
            Issue.record(Comment(rawValue: problem.description), sourceLocation: sourceLocation)
        }
        return report
    }
#endif
