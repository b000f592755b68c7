import FactKit
import Weft

/// `weft graph`: the embedded environment's services and what each resolves, as Graphviz DOT
/// or a Mermaid flowchart, drawn from the composition root's declaration
/// (`AppServices.declaredGraph(embedded:)`) without opening a database or starting a server.
public enum GraphMode {
    /// The output language.
    public enum Format: Sendable, Hashable {
        /// Graphviz DOT: `weft graph | dot -Tsvg > graph.svg`.
        case dot
        /// A Mermaid flowchart, for Markdown that renders Mermaid.
        case mermaid
    }

    /// Prints the graph on standard output; returns the status to exit with.
    public static func run(format: Format) async -> ExitStatus {
        let graph = AppServices.declaredGraph(embedded: true)
        switch format {
        case .dot: StandardStreams.writeOutput(graph.dot())
        case .mermaid: StandardStreams.writeOutput(graph.mermaid())
        }
        return .success
    }
}
