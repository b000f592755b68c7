/// How `weft` reports a run when it does not show the full-screen app.
public enum PlainFormat: Sendable, Hashable {
    /// Lines for a person: one per step, then the fact (`--plain`, or no terminal).
    case text
    /// One JSON object per line, for programs (`--json`).
    case json
}
