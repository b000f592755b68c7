import FactKit
import Foundation

/// `weft environments`: every environment a run can choose, and where each is defined.
public enum EnvironmentsMode {
    struct Record: Encodable {
        var name: String
        var source: String
        var description: String
        var file: String
        var isDefault: Bool
    }

    /// A starter user environments file: one remote and one embedded environment.
    public static let template = """
        {"environments": [
          {"name": "local", "description": "My own server on port 8089 (start one with: weft serve --port 8089).", "source": "http://127.0.0.1:8089", "timeoutSeconds": 3},
          {"name": "flaky", "description": "The built-in server answering garbage, to try the error screen.", "source": "embedded", "fault": "garbage"}
        ]}
        """

    /// Prints the environments of `options` in menu order: name, source, description, file.
    public static func list(
        options: AppOptions, json: Bool, write: @Sendable (String) -> Void = StandardStreams.writeOutput
    ) -> ExitStatus {
        let catalog: EnvironmentCatalog
        do {
            catalog = try options.catalog()
        } catch {
            StandardStreams.writeError("weft environments: \(error)")
            return .usageError
        }
        let records = catalog.environments.map { environment in
            Record(
                name: environment.name, source: environment.source.description, description: environment.description,
                file: catalog.file(of: environment.name), isDefault: environment.name == catalog.defaultEnvironment.name
            )
        }
        if json {
            for record in records { write(JSONLine.encode(record)) }
            return .success
        }
        let nameWidth = records.map(\.name.count).max() ?? 0
        let sourceWidth = records.map(\.source.count).max() ?? 0
        for record in records {
            let mark = record.isDefault ? "*" : " "
            write(
                "\(mark) \(record.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0))  "
                    + "\(record.source.padding(toLength: sourceWidth, withPad: " ", startingAt: 0))  \(record.description)  [\(record.file)]"
            )
        }
        write("* the default (the first); add your own in a file like `weft environments --template` prints")
        return .success
    }
}
