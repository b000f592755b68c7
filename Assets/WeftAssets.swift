public import Foundation

/// The data files `weft` ships with, read from the package's resource bundle.
///
/// Reading through `Bundle.module` means the app finds its data from any working
/// directory, never through paths relative to the current directory.
public enum WeftAssets {
    /// The URL of a bundled file, such as `facts.json`, or `nil` if it is not bundled.
    public static func url(forResource name: String, withExtension ext: String) -> URL? {
        Bundle.module.url(forResource: name, withExtension: ext)
    }

    /// The contents of a bundled file.
    public static func data(forResource name: String, withExtension ext: String) throws -> Data {
        guard let url = url(forResource: name, withExtension: ext) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "\(name).\(ext) (bundled asset)"])
        }
        return try Data(contentsOf: url)
    }
}
