import Foundation

/// Unbuffered writes to standard output and error, so lines appear as they happen in a pipe.
public enum StandardStreams {
    /// Makes a reader that goes away (`weft --plain | head -1`) end output quietly: SIGPIPE
    /// is ignored, so a write to the closed pipe fails (and is dropped) instead of killing
    /// the process with status 141. Call once, first thing in `main`.
    public static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Whether standard input and output are both terminals.
    public static var areTerminals: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// Writes `line` and a newline to its stream.
    @Sendable
    static func write(_ line: PlainLine) {
        switch line.stream {
        case .output: writeOutput(line.text)
        case .error: writeError(line.text)
        }
    }

    /// Writes `text` and a newline to standard output, unless `text` already ends in one.
    public static func writeOutput(_ text: String) {
        write(text, to: .standardOutput)
    }

    /// Writes `text` and a newline to standard error, unless `text` already ends in one.
    public static func writeError(_ text: String) {
        write(text, to: .standardError)
    }

    /// Ends the process with `status`.
    static func exit(_ status: ExitStatus) -> Never {
        Foundation.exit(status.rawValue)
    }

    private static func write(_ text: String, to handle: FileHandle) {
        let line = text.hasSuffix("\n") ? text : text + "\n"
        // A closed pipe (`weft --plain | head -1`) is not an error worth reporting.
        try? handle.write(contentsOf: Data(line.utf8))
    }
}
