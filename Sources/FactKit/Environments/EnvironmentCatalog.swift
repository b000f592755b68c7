public import Foundation
import WeftAssets

/// The environments a person can choose from, in menu order, read from an environments file.
///
/// The file format:
///
/// ```json
/// {"environments": [
///   {"name": "embedded", "description": "…", "source": "embedded", "timeoutSeconds": 3},
///   {"name": "broken", "description": "…", "source": "embedded", "fault": "http-500"},
///   {"name": "production", "description": "…", "source": "https://catfact.ninja", "timeoutSeconds": 5}
/// ]}
/// ```
///
/// `name`, `description` and `source` are required; `timeoutSeconds` defaults to
/// `Environment.defaultTimeout`; `fault` (one of ``ServerFault``) is allowed only with the
/// `embedded` source. Names must be unique. The first environment is the default.
public struct EnvironmentCatalog: Sendable, Hashable {
    /// The environments in file order, which is menu order. Never empty.
    public private(set) var environments: [Environment]
    /// The file they were read from, as named in error messages.
    let file: String
    /// The file each environment comes from, by name, when the catalog merges several.
    private var origins: [String: String] = [:]

    /// The first environment in the file.
    public var defaultEnvironment: Environment {
        // `environments` is validated non-empty by every initializer.
        environments[0]
    }

    /// The environment names in menu order.
    public var names: [String] { environments.map(\.name) }

    /// Creates a catalogue from environments already in memory.
    ///
    /// - Throws: ``EnvironmentCatalogError/invalidField(file:line:field:problem:)`` when the list is
    ///   empty or two environments share a name.
    init(environments: [Environment], file: String = "(in memory)") throws(EnvironmentCatalogError) {
        guard !environments.isEmpty else {
            throw .invalidField(
                file: file, line: nil, field: "environments",
                problem: "expected at least one environment, got an empty list")
        }
        var firstIndex: [String: Int] = [:]
        for (index, environment) in environments.enumerated() {
            if let earlier = firstIndex[environment.name] {
                throw .invalidField(
                    file: file, line: nil, field: "environments[\(index)].name",
                    problem:
                        "duplicate name \"\(environment.name)\" (already used by environments[\(earlier)]); names must be unique"
                )
            }
            firstIndex[environment.name] = index
        }
        self.environments = environments
        self.file = file
    }

    /// Parses an environments file's contents.
    ///
    /// - Parameters:
    ///   - data: The JSON text.
    ///   - file: The name used in error messages, usually the path the data came from.
    package init(data: Data, file: String) throws(EnvironmentCatalogError) {
        try self.init(environments: EnvironmentFileParser(file: file).parse(data), file: file)
    }

    /// Reads and parses an environments file, such as a person's own list of environments.
    ///
    /// Only a regular file of at most `maximumFileSize` bytes is read: a directory, an
    /// empty file, a device or a FIFO is refused by what it is, without reading from it.
    public static func load(contentsOf url: URL) throws(EnvironmentCatalogError) -> EnvironmentCatalog {
        let file = url.isFileURL ? url.path : url.absoluteString
        return try EnvironmentCatalog(data: readFile(at: file), file: file)
    }

    /// The largest environments file read: 1 MiB.
    static let maximumFileSize = 1024 * 1024

    private static func readFile(at path: String) throws(EnvironmentCatalogError) -> Data {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw .unreadable(file: path, reason: Self.reason(for: error))
        }
        switch attributes[.type] as? FileAttributeType {
        case .typeRegular?:
            break
        case .typeDirectory?:
            throw .notAnEnvironmentsFile(file: path, problem: "is a directory")
        case .typeCharacterSpecial?:
            // /dev/null reads as nothing: say it is empty; any other device is not a file.
            let first = try? FileHandle(forReadingFrom: URL(fileURLWithPath: path)).read(upToCount: 1)
            if first?.isEmpty ?? true { throw .notAnEnvironmentsFile(file: path, problem: "is empty") }
            throw .notAnEnvironmentsFile(file: path, problem: "is not a regular file (it is a device)")
        default:
            // A FIFO is never opened: that would wait for a writer.
            throw .notAnEnvironmentsFile(file: path, problem: "is not a regular file (a FIFO, socket or device)")
        }
        if let size = attributes[.size] as? Int, size > maximumFileSize {
            throw .notAnEnvironmentsFile(
                file: path, problem: "is larger than 1 MiB, too large for an environments file")
        }
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            data = try handle.read(upToCount: maximumFileSize + 1) ?? Data()
        } catch {
            throw .unreadable(file: path, reason: Self.reason(for: error))
        }
        guard !data.isEmpty else { throw .notAnEnvironmentsFile(file: path, problem: "is empty") }
        guard data.count <= maximumFileSize else {
            throw .notAnEnvironmentsFile(
                file: path, problem: "is larger than 1 MiB, too large for an environments file")
        }
        return data
    }

    /// The environments file bundled with weft (`Assets/environments.json`).
    public static func bundled() throws(EnvironmentCatalogError) -> EnvironmentCatalog {
        let file = "environments.json (bundled)"
        let data: Data
        do {
            data = try WeftAssets.data(forResource: "environments", withExtension: "json")
        } catch {
            throw .unreadable(file: file, reason: Self.reason(for: error))
        }
        return try EnvironmentCatalog(data: data, file: file)
    }

    /// The file the environment named `name` was read from, such as
    /// `environments.json (bundled)` or a path.
    public func file(of name: String) -> String {
        origins[name] ?? file
    }

    /// This catalog with `overlay`'s environments added: one with a name already listed
    /// replaces it in place, the others follow in the overlay's order.
    public func adding(_ overlay: EnvironmentCatalog) -> EnvironmentCatalog {
        var merged = self
        var all = environments
        for environment in overlay.environments {
            if let index = all.firstIndex(where: { $0.name == environment.name }) {
                all[index] = environment
            } else {
                all.append(environment)
            }
            merged.origins[environment.name] = overlay.file(of: environment.name)
        }
        for environment in environments where merged.origins[environment.name] == nil {
            merged.origins[environment.name] = file(of: environment.name)
        }
        merged.environments = all
        return merged
    }

    /// The environment with this name.
    ///
    /// - Throws: ``EnvironmentCatalogError/unknownEnvironment(name:known:)`` listing the known names.
    public func environment(named name: String) throws(EnvironmentCatalogError) -> Environment {
        guard let environment = environments.first(where: { $0.name == name }) else {
            throw .unknownEnvironment(name: name, known: names)
        }
        return environment
    }

    /// Why bundled data could not be read, in a few words.
    private static func reason(for error: any Error) -> String {
        let nsError = error as NSError
        if nsError.domain == NSCocoaErrorDomain,
            nsError.code == CocoaError.fileReadNoSuchFile.rawValue
                || nsError.code == CocoaError.fileNoSuchFile.rawValue
        {
            return "no such file"
        }
        if nsError.domain == NSCocoaErrorDomain, nsError.code == CocoaError.fileReadNoPermission.rawValue {
            return "permission denied"
        }
        return nsError.localizedDescription
    }
}
