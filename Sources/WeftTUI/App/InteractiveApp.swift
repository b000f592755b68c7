import FactKit

/// Runs the full-screen app until the person quits. Returns the process exit code
/// (0 quit, 130 SIGINT, 143 SIGTERM). Throws TerminalError when there is no usable
/// terminal (caller falls back to plain mode or exits 2).
@MainActor
public enum InteractiveApp {
    /// Temporary stand-in until the app branch is merged: always reports no terminal.
    public static func run(options: AppOptions, environment: [String: String]) async throws(TerminalError) -> Int32 {
        throw TerminalError(.notATerminal)
    }
}
