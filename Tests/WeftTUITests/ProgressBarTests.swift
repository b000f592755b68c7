import Testing

@testable import WeftTUI
@testable import WeftTerminal

@Suite("Progress bar")
struct ProgressBarTests {
    @Test("The filled part is proportional and the label counts units")
    func proportional() {
        let parts = ProgressBar(completed: 1, total: 4).text(width: 24)
        #expect(parts.label == " 1/4")
        #expect(parts.filled.count == 5)
        #expect(parts.filled.count + parts.empty.count + parts.label.count == 24)
        #expect(ProgressBar(completed: 4, total: 4).text(width: 14).empty.isEmpty)
        #expect(ProgressBar(completed: 0, total: 0).fraction == 0)
    }
}
