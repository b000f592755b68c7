import ArgumentParser
import FactKit
import Foundation
import Weft
import WeftTUI

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
        // Discovering the edges resolves every service for real: a throwaway database in a
        // temporary folder and an embedded server that is stopped straight after.
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("weft-graph-\(UUID().uuidString)", isDirectory: true)
        let graph: DependencyGraph
        do {
            let environment = try EnvironmentCatalog.bundled().environment(named: "embedded")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let servers = RunningServers()
            let container = AppServices.makeContainer(
                environment: environment,
                databaseURL: directory.appendingPathComponent("history.sqlite"),
                database: nil,
                servers: servers)
            graph = await container.graph()
            await servers.stopAll()
            try? FileManager.default.removeItem(at: directory)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            StandardStreams.writeError("weft graph: \(error)")
            throw ExitCode(ExitStatus.initializationFailed.rawValue)
        }
        switch format {
        case .dot: StandardStreams.writeOutput(graph.dot())
        case .mermaid: StandardStreams.writeOutput(graph.mermaid())
        }
    }
}
