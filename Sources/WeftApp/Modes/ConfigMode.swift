/// `weft config`: each setting, its value and the layer it came from.
public enum ConfigMode {
    /// Prints ``AppSettings/report``.
    public static func run(settings: AppSettings, write: @Sendable (String) -> Void = StandardStreams.writeOutput)
        -> ExitStatus
    {
        for line in settings.report { write(line) }
        return .success
    }
}
