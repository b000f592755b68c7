import Foundation
public import Logging
import WeftAssets

extension FactServer {
    /// The cat facts bundled with weft (`Assets/facts.json`, `{"facts": [String]}`).
    static func bundledFacts() throws(FactServerError) -> [String] {
        struct FactsFile: Decodable { var facts: [String] }
        let file: FactsFile
        do {
            let data = try WeftAssets.data(forResource: "facts", withExtension: "json")
            file = try JSONDecoder().decode(FactsFile.self, from: data)
        } catch {
            throw .noFacts(reason: "facts.json: \(error.localizedDescription)")
        }
        guard !file.facts.isEmpty else {
            throw .noFacts(reason: "facts.json holds an empty list")
        }
        return file.facts
    }

    /// A server for the bundled facts.
    ///
    /// - Parameters:
    ///   - port: The port to listen on; `0` picks a free one.
    ///   - fault: A deliberate fault, or `nil` to serve normally.
    ///   - slowResponseDelay: How long ``ServerFault/slow`` waits before answering.
    ///   - logger: Where each request is logged; silent by default.
    ///   - metrics: What `/metrics` answers (the Prometheus text format); none by default.
    public static func bundled(
        port: UInt16 = 0,
        fault: ServerFault? = nil,
        slowResponseDelay: Duration = FactServer.defaultSlowResponseDelay,
        logger: Logger = FactServer.silentLogger,
        metrics: (@Sendable () -> [UInt8])? = nil
    ) throws(FactServerError) -> FactServer {
        try FactServer(
            facts: bundledFacts(), port: port, fault: fault, slowResponseDelay: slowResponseDelay, logger: logger,
            metrics: metrics)
    }
}
