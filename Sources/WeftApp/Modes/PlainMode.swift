/// Runs a plain session writing to standard output and error; SIGINT or SIGTERM cancels
/// the run, stops its servers and exits 130 or 143.
public enum PlainMode {
    /// Runs the app's initialization once and prints it in `format`; returns the status to exit with.
    ///
    /// - Parameters:
    ///   - options: The settings of this run.
    ///   - format: Plain lines or JSON lines.
    ///   - notice: A line for the person first, such as why the full-screen app did not start.
    public static func run(options: AppOptions, format: PlainFormat, notice: String?) async -> ExitStatus {
        await TerminationSignals.cancelling {
            let reporter = PlainReporter(format: format, sink: StandardStreams.write)
            if let notice { reporter.notice(notice) }
            return await PlainSession(options: options, reporter: reporter).run()
        }
    }
}
