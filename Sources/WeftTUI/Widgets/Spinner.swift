import WeftTerminal

/// Frames of an activity spinner: braille dots, or ASCII on a monochrome terminal.
enum Spinner {
    /// The braille frames.
    static let brailleFrames: [String] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    /// The ASCII frames.
    static let asciiFrames: [String] = ["|", "/", "-", "\\"]

    /// The glyph for animation frame `frame` (any integer; frames repeat).
    static func frame(_ frame: Int, isMonochrome: Bool) -> String {
        let frames = isMonochrome ? asciiFrames : brailleFrames
        let index = ((frame % frames.count) + frames.count) % frames.count
        return frames[index]
    }
}
