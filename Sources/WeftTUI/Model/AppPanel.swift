/// A full-screen panel over the current stage: the environment menu or diagnostics.
public enum AppPanel: Sendable, Hashable {
    /// The environment picker.
    case environmentMenu(EnvironmentMenu)
    /// Container registrations and the last run's timeline.
    case diagnostics
}
