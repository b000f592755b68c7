public import Foundation

/// A fresh temporary directory for one test; remove it with ``removeTemporaryDirectory(_:)``.
public func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("weft-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Removes a temporary directory, restoring write permission first if a test removed it.
public func removeTemporaryDirectory(_ url: URL) {
    let manager = FileManager.default
    if let paths = manager.enumerator(atPath: url.path) {
        for case let path as String in paths {
            try? manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.appendingPathComponent(path).path)
        }
    }
    try? manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
    try? manager.removeItem(at: url)
}
