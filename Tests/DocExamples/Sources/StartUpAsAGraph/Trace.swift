import Foundation
import WeftInitializer

/// The trace block, on the result of the first block.
@MainActor
func writeTheTrace() throws {
    // doc begins
    let url = URL.temporaryDirectory.appending(path: "start-up.trace.json")
    try result.report.traceEventJSON().write(to: url, atomically: true, encoding: .utf8)
    // doc ends
    let trace = try String(contentsOf: url, encoding: .utf8)
    precondition(trace.contains("\"ph\":\"X\""), "the trace was written")
    try FileManager.default.removeItem(at: url)
}
