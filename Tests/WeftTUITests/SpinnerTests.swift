import Testing

@testable import WeftTUI
@testable import WeftTerminal

@Suite("Spinner")
struct SpinnerTests {
    @Test("Braille frames in colour, ASCII frames in monochrome, repeating")
    func frames() {
        #expect(Spinner.frame(0, isMonochrome: false) == "⠋")
        #expect(Spinner.frame(10, isMonochrome: false) == "⠋")
        #expect(Spinner.frame(1, isMonochrome: true) == "/")
        #expect(Spinner.frame(-1, isMonochrome: true) == "\\")
        #expect(Set((0..<4).map { Spinner.frame($0, isMonochrome: true) }).count == 4)
    }
}
