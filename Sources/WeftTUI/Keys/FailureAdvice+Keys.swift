import WeftApp
import WeftTerminal

extension FailureAdvice.Phrasing {
    /// Actions named by their keys on the error screen, as ``KeyMap`` binds them: `Retry (r)`.
    static var keys: Self {
        let errorScreen = KeyContext.error(environment: "")
        let retry = KeyMap.key(for: .retry, in: errorScreen).map { " (\($0))" } ?? ""
        let choose = KeyMap.key(for: .chooseEnvironment, in: errorScreen).map { " (\($0))" } ?? ""
        return Self(
            retry: "Retry\(retry)",
            pickAnother: "pick another environment\(choose)",
            pickEmbedded: "pick the embedded environment\(choose)",
            knownEnvironment: "Pick one of the known environments\(choose).",
            longerDeadline: "Retry\(retry), or start weft again with a longer "
                + "--startup-deadline SECONDS (or WEFT_STARTUP_DEADLINE)"
        )
    }
}
