import Foundation
import PackagePlugin

/// Embeds every data file of a target's folder (everything but its Swift sources) into the
/// module as generated Swift, so the binary carries its assets and needs no resource bundle.
///
/// The folder stays the source of truth: the build re-runs the generator whenever one of the
/// files changes. List the files in the target's `exclude:` so SwiftPM does not also treat
/// them as resources.
@main
struct EmbedAssets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = target.directoryURL
        let files = try FileManager.default
            .contentsOfDirectory(
                at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]
            )
            .filter { url in
                url.pathExtension != "swift"
                    && (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
            }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedAssets.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) assets of \(target.name)",
                executable: try context.tool(named: "EmbedAssetsTool").url,
                arguments: [output.path] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output]
            )
        ]
    }
}
