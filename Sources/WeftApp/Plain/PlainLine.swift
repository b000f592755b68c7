/// One line of plain output and the stream it belongs on.
struct PlainLine: Sendable, Hashable, CustomStringConvertible {
    /// Where a line is written.
    enum Stream: Sendable, Hashable {
        /// Standard output: progress, the fact, and every JSON line.
        case output
        /// Standard error: why a run failed, and notices.
        case error
    }

    /// The stream the line is written to.
    var stream: Stream
    /// The text, without a trailing newline; never contains control characters.
    var text: String

    /// Creates a line.
    init(_ text: String, on stream: Stream = .output) {
        self.text = text
        self.stream = stream
    }

    /// The text.
    var description: String { text }
}
