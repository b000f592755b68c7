import Testing
import Weft
import WeftTesting

/// Two services that need each other.
private final class Chicken: Sendable {
    let egg: Egg
    init(egg: Egg) { self.egg = egg }
}
private final class Egg: Sendable {
    let chicken: Chicken
    init(chicken: Chicken) { self.chicken = chicken }
}

/// The comment of `issue`, as `expectValid` recorded it.
private func text(of issue: Issue) -> String {
    issue.comments.map(\.rawValue).joined(separator: "\n")
}

@Suite("expectValid")
struct ExpectValidTests {
    // doc begins
    @Test func theCheckoutConfigurationResolves() async {
        let container = Container()
        container.register((any Payments).self, lifetime: .singleton) { FakePayments() }
        container.register(Receipts.self) { r in Receipts(payments: try r.resolve((any Payments).self)) }
        await expectValid(container)  // fails the test with one issue per problem validate() finds
    }
    // doc ends

    @Test("records one issue per problem, with the problem's description, at the call")
    func recordsEveryProblem() async {
        let container = Container()
        container.register(Receipts.self) { r in Receipts(payments: try r.resolve((any Payments).self)) }
        container.register(Chicken.self) { r in Chicken(egg: try r.resolve(Egg.self)) }
        container.register(Egg.self) { r in Egg(chicken: try r.resolve(Chicken.self)) }
        let problems = await container.validate().problems
        #expect(problems.count == 2)
        #expect(Set(problems.map(\.code)) == [.missingDependency, .circularDependency])
        let expected = Set(problems.map(\.description))

        var report: ValidationReport?
        let here = SourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
        await confirmation("one issue per problem", expectedCount: 2) { recorded in
            await withKnownIssue {
                report = await expectValid(container, sourceLocation: here)
            } matching: { issue in
                recorded()
                return expected.contains(text(of: issue)) && issue.sourceLocation == here
            }
        }
        #expect(report?.isValid == false)
        #expect(Set(report?.problems.map(\.description) ?? []) == expected)
    }

    @Test("reports its issues where it is called by default")
    func reportsAtTheCall() async {
        let container = Container()
        container.register(Receipts.self) { r in Receipts(payments: try r.resolve((any Payments).self)) }
        await withKnownIssue {
            await expectValid(container)
        } matching: { issue in
            issue.sourceLocation?.fileID == #fileID
        }
    }

    @Test("records nothing for a valid container and returns its report")
    func recordsNothingWhenValid() async {
        let container = Container()
        container.register((any Payments).self, lifetime: .singleton) { FakePayments() }
        container.register(Receipts.self) { r in Receipts(payments: try r.resolve((any Payments).self)) }
        var report: ValidationReport?
        await confirmation("no issue", expectedCount: 0) { recorded in
            await withKnownIssue(isIntermittent: true) {
                report = await expectValid(container)
            } matching: { _ in
                recorded()
                return true
            }
        }
        #expect(report?.isValid == true)
        #expect(report?.graph.dot().contains("Receipts") == true)
    }
}
