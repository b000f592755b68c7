// The Swift block of Sources/Weft/Weft.docc/ComingFromFactory.md is a Swift Testing test
// (Checkout.swift): run it, and the test beside it, as `swift test` would.
import Testing

let status: CInt = await Testing.__swiftPMEntryPoint(passing: nil)
precondition(status == 0, "the article's test failed")
print("tests passed")
