public import Foundation

/// The data files `weft` ships with (`Assets/`), embedded in the binary.
///
/// `scripts/embed-assets` turns every data file of `Assets/` into generated Swift
/// (`EmbeddedAssets.swift`), so the app reads its data from its own code: from any working
/// directory, after the build folder is gone, and from a copied binary. No resource bundle is
/// ever looked up.
public enum WeftAssets {
    /// The names of the embedded files, sorted, such as `facts.json`.
    public static var names: [String] { EmbeddedAssets.files.keys.sorted() }

    /// The contents of an embedded file, such as `data(named: "facts.json")`.
    ///
    /// - Throws: ``WeftAssetsError`` when no file of that name was embedded.
    public static func data(named name: String) throws(WeftAssetsError) -> Data {
        guard let encoded = EmbeddedAssets.files[name] else {
            throw .missing(name: name, available: names)
        }
        guard let data = Data(base64Encoded: encoded, options: .ignoreUnknownCharacters) else {
            throw .damaged(name: name)
        }
        return data
    }

    /// The contents of an embedded file, by base name and extension.
    ///
    /// - Throws: ``WeftAssetsError`` when no file of that name was embedded.
    public static func data(forResource name: String, withExtension ext: String) throws(WeftAssetsError) -> Data {
        try data(named: "\(name).\(ext)")
    }
}
