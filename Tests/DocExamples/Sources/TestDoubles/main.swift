// The Swift blocks of Sources/Weft/Weft.docc/TestDoubles.md: the demo mode, run as an app runs
// it, and the article's Swift Testing tests, run as `swift test` would.
import Testing
import Weft

// doc begins
extension Container.Context { static let demo: Self = "demo" }

let app = Container()
app.register((any HTTPClient).self, lifetime: .singleton) { LiveHTTPClient() }
app.register((any HTTPClient).self, lifetime: .singleton, when: .demo) { DemoHTTPClient() }
app.contexts.insert(.demo)  // e.g. from a launch argument
print(try await app.require((any HTTPClient).self).get("/fact"))  // a demo fact
// doc ends

let status: CInt = await Testing.__swiftPMEntryPoint(passing: nil)
precondition(status == 0, "the article's tests failed")
print("tests passed")
