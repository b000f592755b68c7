import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import FactKit

/// A GET over a fresh ephemeral session, returning status and body.
func httpGet(_ url: URL) async throws -> (status: Int, body: Data) {
    let session = URLSession(configuration: .ephemeral)
    defer { session.invalidateAndCancel() }
    let (data, response) = try await session.data(from: url)
    return ((response as? HTTPURLResponse)?.statusCode ?? -1, data)
}

/// Runs `body` against a started bundled server, stopping it afterwards.
func withFactServer<T: Sendable>(
    fault: ServerFault? = nil,
    slowResponseDelay: Duration = .seconds(60),
    _ body: (FactServer, URL) async throws -> T
) async throws -> T {
    let server = try FactServer.bundled(fault: fault, slowResponseDelay: slowResponseDelay)
    let baseURL = try await server.start()
    do {
        let result = try await body(server, baseURL)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// A fresh temporary directory, removed by the caller with `removeTemporaryDirectory`.
func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("factkit-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Removes a temporary directory, restoring write permission first if a test removed it.
func removeTemporaryDirectory(_ url: URL) {
    let manager = FileManager.default
    if let paths = manager.enumerator(atPath: url.path) {
        for case let path as String in paths {
            try? manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.appendingPathComponent(path).path)
        }
    }
    try? manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
    try? manager.removeItem(at: url)
}

/// Whether permission bits are enforced for this process (they are not for root).
let permissionsAreEnforced: Bool = geteuid() != 0
