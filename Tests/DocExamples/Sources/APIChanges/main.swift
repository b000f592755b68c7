// The Swift block of Sources/Weft/Weft.docc/APIChanges.md: telling errors apart.
// The formatter wants two spaces in `catch  where`; the article writes one.
// swift-format-ignore-file
import Weft

// doc begins
struct Database: Sendable {}

let container = Container()
container.register(Database.self, name: "replica") { Database() }

do {
    _ = try container.require(Database.self)
} catch where error.code == .notRegistered {
    print(error.key)  // Database
    print(error.suggestions)  // ["replica" Database]
} catch {
    print(error)
}
// doc ends
