import ArgumentParser
import WeftApp

extension WeftCommand {
    /// Parses the command line and runs the command, exiting with the documented status:
    /// ArgumentParser's usage errors exit with 2 rather than its default 64, and a closed
    /// output pipe ends output quietly rather than with SIGPIPE.
    static func main() async {
        StandardStreams.ignoreBrokenPipes()
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                StandardStreams.writeError(fullMessage(for: error))
                exit(withError: ExitCode(ExitStatus.usageError.rawValue))
            }
            exit(withError: error)
        }
    }
}
