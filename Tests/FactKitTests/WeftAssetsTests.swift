import Foundation
import Testing
import WeftAssets

@Suite("WeftAssets: Assets/ is compiled into the binary")
struct WeftAssetsTests {
    @Test("every file of Assets/ is embedded, byte for byte")
    func embedded() throws {
        let folder = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Assets")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { !$0.hasSuffix(".swift") && !$0.hasPrefix(".") }.sorted()
        #expect(WeftAssets.names == files)
        for file in files {
            let expected = try Data(contentsOf: folder.appendingPathComponent(file))
            #expect(try WeftAssets.data(named: file) == expected, "\(file)")
        }
    }

    @Test("a missing asset is a typed error naming what is there, never a crash")
    func missing() {
        #expect(throws: WeftAssetsError.missing(name: "nope.json", available: WeftAssets.names)) {
            try WeftAssets.data(named: "nope.json")
        }
        let message = WeftAssetsError.missing(name: "nope.json", available: ["facts.json"]).description
        #expect(message.contains("nope.json") && message.contains("facts.json") && message.contains("Assets/"))
    }
}
