import Foundation
import Testing
import WeftApp
import WeftInitializer

@Suite("weft startup --budget: the budget file")
struct StartupBudgetFileTests {
    @Test("weft's own budget reads, and limits ready, total and four steps")
    func bundled() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../Assets/startup-budget.json")
        let budget = try StartupBudgetFile.load(contentsOf: url)
        #expect(budget.ready?.median != nil && budget.total?.median != nil)
        #expect(Set(budget.steps.keys) == ["server", "fact", "history", "health"])
    }

    @Test(
        "A file weft cannot use is named, with where and what",
        arguments: [
            ("{\"version\": 1,", "/b.json: not valid JSON"),
            ("{}", "/b.json: \"version\" is missing: write \"version\": 1"),
            ("{\"version\": 1, \"ready\": []}", "/b.json: ready: expected an object"),
            (
                "{\"version\": 1, \"total\": {\"p90Ms\": \"fast\"}}",
                "/b.json: total.p90Ms: expected a number of milliseconds"
            ),
            (
                "{\"version\": 1, \"steps\": {\"fact\": {\"medianMs\": -1}}}",
                "/b.json: steps.fact.medianMs: -1.0 is below zero"
            ),
        ])
    func refused(text: String, expected: String) {
        #expect {
            try StartupBudgetFile.parse(Data(text.utf8), path: "/b.json")
        } throws: { error in
            "\(error)".hasPrefix(expected)
        }
    }

    @Test("A file that is not there says so, naming it")
    func missing() {
        #expect {
            try StartupBudgetFile.load(contentsOf: URL(fileURLWithPath: "/nonexistent/budget.json"))
        } throws: { error in
            "\(error)".hasPrefix("/nonexistent/budget.json: cannot be read")
        }
    }
}
