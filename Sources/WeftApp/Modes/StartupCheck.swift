import FactKit

/// What the full-screen app checks before it takes the terminal: the environments file and
/// the `--env` name, read as its first run would read them. A mistake there is the person's
/// to fix on the command line, so it is reported on standard error and weft exits 2 before
/// any screen is drawn, as plain mode does.
public enum StartupCheck {
    /// Loads the environments catalog and looks up the requested environment.
    ///
    /// - Returns: `nil` when both are fine; otherwise ``ExitStatus/usageError``, after
    ///   writing the problem and a hint to standard error.
    public static func run(options: AppOptions) -> ExitStatus? {
        guard let problem = problem(with: options) else { return nil }
        StandardStreams.writeError("weft: \(String(describing: problem).plainText)")
        StandardStreams.writeError("  hint:  \(FailureAdvice.hint(for: problem, environment: nil).plainText)")
        return .usageError
    }

    /// The catalog's or the environment name's problem, if any.
    static func problem(with options: AppOptions) -> EnvironmentCatalogError? {
        do throws(EnvironmentCatalogError) {
            let catalog: EnvironmentCatalog
            if let file = options.environmentsFile {
                catalog = try EnvironmentCatalog.load(contentsOf: file)
            } else {
                catalog = try EnvironmentCatalog.bundled()
            }
            if let name = options.environmentName { _ = try catalog.environment(named: name) }
            return nil
        } catch {
            return error
        }
    }
}
