import Foundation

/// `EmbedAssetsTool OUTPUT FILE...`: writes a Swift file declaring `EmbeddedAssets.files`, a
/// dictionary from each file's name to its bytes as Base64 (one string literal per file, which
/// compiles fast whatever the size and keeps every byte exact).
@main
enum EmbedAssetsTool {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let output = arguments.first else {
            fail("usage: EmbedAssetsTool OUTPUT FILE...")
        }
        var swift = """
            // Generated at build time by the EmbedAssets plugin from the target's data files.
            // Do not edit: change the files themselves.

            /// The target's data files by name, each as Base64 text.
            enum EmbeddedAssets {
                static let files: [String: String] = [

            """
        var names: Set<String> = []
        for path in arguments.dropFirst() {
            let url = URL(fileURLWithPath: path)
            let name = url.lastPathComponent
            guard names.insert(name).inserted else { fail("two assets are named \(name); rename one") }
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                fail("cannot read the asset \(path): \(error.localizedDescription)")
            }
            swift += "        \(literal(name)): \"\(data.base64EncodedString())\",\n"
        }
        if names.isEmpty { swift += "        :\n" }
        swift += "    ]\n}\n"
        do {
            // Rewrite only on change, so an unchanged asset set rebuilds nothing downstream.
            let existing = try? String(contentsOfFile: output, encoding: .utf8)
            if existing != swift { try swift.write(toFile: output, atomically: true, encoding: .utf8) }
        } catch {
            fail("cannot write \(output): \(error.localizedDescription)")
        }
    }

    /// A Swift string literal for a file name.
    static func literal(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case _ where scalar.value < 0x20: escaped += "\\u{\(String(scalar.value, radix: 16))}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "\"\(escaped)\""
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("EmbedAssetsTool: \(message)\n".utf8))
        exit(1)
    }
}
