import WeftTerminal

/// A full-screen panel over the current stage: the environment menu, diagnostics, the history or the
/// start-up's critical chain.
enum AppPanel: Sendable, Hashable {
    /// The environment picker.
    case environmentMenu(EnvironmentMenu)
    /// Container registrations and the last run's timeline.
    case diagnostics
    /// The facts shown so far.
    case history(HistoryPanel)
    /// The last start-up's critical chain.
    case startup
}
