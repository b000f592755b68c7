import ArgumentParser
import WeftApp

/// `weft graph`: the app's services and what each resolves, as Graphviz DOT or Mermaid.
struct GraphCommand: AsyncParsableCommand {
    /// The output language.
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case dot, mermaid
    }

    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Print the app's dependency graph (the embedded environment's services).",
        discussion: "Render it with: weft graph | dot -Tsvg > graph.svg"
    )

    @Option(help: ArgumentHelp("The output language: Graphviz DOT or a Mermaid flowchart", valueName: "format"))
    var format: Format = .dot

    func run() async throws {
        let status = await GraphMode.run(format: format == .dot ? .dot : .mermaid)
        if status != .success { throw ExitCode(status.rawValue) }
    }
}
