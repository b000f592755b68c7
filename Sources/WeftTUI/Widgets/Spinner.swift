/// Frames of an activity spinner: braille dots, or ASCII on a monochrome terminal.
public enum Spinner {
    /// The braille frames.
    public static let brailleFrames: [String] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    /// The ASCII frames.
    public static let asciiFrames: [String] = ["|", "/", "-", "\\"]

    /// The glyph for animation frame `frame` (any integer; frames repeat).
    public static func frame(_ frame: Int, isMonochrome: Bool) -> String {
        let frames = isMonochrome ? asciiFrames : brailleFrames
        let index = ((frame % frames.count) + frames.count) % frames.count
        return frames[index]
    }
}
