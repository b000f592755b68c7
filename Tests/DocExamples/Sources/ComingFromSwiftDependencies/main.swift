// The Swift blocks of Sources/Weft/Weft.docc/ComingFromSwiftDependencies.md: the registrations,
// checked outside tests here, and the article's Swift Testing tests, run as `swift test` would.
import Testing

liveOutsideTests()
let status: CInt = await Testing.__swiftPMEntryPoint(passing: nil)
precondition(status == 0, "the article's tests failed")
print("tests passed")
