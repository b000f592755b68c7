import Testing
import Weft
import WeftTesting

/// Stores the feed; the app's storage module registers it, the tests a fake.
private struct Database: Sendable {}

/// The feed, built on the `Database`.
private struct Feed: Sendable {
    let database: Database
}

/// Something the feed module registers whose factory fails.
private struct FeedRanking: Sendable {}
private struct RankingUnavailable: Error, CustomStringConvertible {
    var description: String { "no ranking model" }
}

/// The module under test: it registers `Feed`, which needs a `Database` some other module
/// registers, and depends by name on the app's "Storage" module.
private struct FeedModule: Module {
    var name: String { "FeedModule" }
    var dependencies: [String] { ["Storage"] }
    var requirements: [ServiceKey] { [ServiceKey(Database.self)] }
    var rankingFails = false
    var configureFails = false

    func configure(_ container: Container) async throws {
        if configureFails { throw RankingUnavailable() }
        container.register(Feed.self) { r in Feed(database: try r.resolve(Database.self)) }
        if rankingFails {
            container.register(FeedRanking.self) { () throws -> FeedRanking in throw RankingUnavailable() }
        }
    }
}

/// Stands in for the app's storage module.
private struct FakeStorage: Module {
    var name: String { "FakeStorage" }
    /// Registers, besides the `Database`, something broken that the feed module never uses.
    var alsoBroken = false

    func configure(_ container: Container) async throws {
        container.register(Database.self, lifetime: .singleton) { Database() }
        if alsoBroken {
            container.register(FeedRanking.self) { () throws -> FeedRanking in throw RankingUnavailable() }
        }
    }
}

/// The comment of `issue`, as recorded.
private func text(of issue: Issue) -> String {
    issue.comments.map(\.rawValue).joined(separator: "\n")
}

@Suite("expectValid(module:fakes:)")
struct ExpectValidModuleTests {
    @Test("a module with fakes for its requirements passes, though the module it depends on by name is absent")
    func passesWithFakes() async {
        var report: ValidationReport?
        await confirmation("no issue", expectedCount: 0) { recorded in
            await withKnownIssue(isIntermittent: true) {
                report = await expectValid(module: FeedModule(), fakes: [FakeStorage()])
            } matching: { _ in
                recorded()
                return true
            }
        }
        #expect(report?.isValid == true)
        #expect(report?.graph.dot().contains("Feed") == true)
    }

    @Test("problems of the fakes alone are not the module's")
    func ignoresTheFakesProblems() async {
        let report = await expectValid(module: FeedModule(), fakes: [FakeStorage(alsoBroken: true)])
        #expect(report?.problems.count == 1)  // the fake's FeedRanking, not reported
    }

    @Test("records one issue for a requirement no fake registers, at the call")
    func reportsAMissingFake() async {
        let here = SourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
        var report: ValidationReport?
        await confirmation("one issue", expectedCount: 1) { recorded in
            await withKnownIssue {
                report = await expectValid(module: FeedModule(), sourceLocation: here)
            } matching: { issue in
                recorded()
                return text(of: issue)
                    == "FeedModule requires Database: give expectValid a fake module that registers it."
                    && issue.sourceLocation == here
            }
        }
        #expect(report != nil)
    }

    @Test("records each problem of the module's own keys, with the problem's description")
    func reportsAFailingFactory() async {
        var report: ValidationReport?
        await confirmation("one issue", expectedCount: 1) { recorded in
            await withKnownIssue {
                report = await expectValid(module: FeedModule(rankingFails: true), fakes: [FakeStorage()])
            } matching: { issue in
                recorded()
                return text(of: issue).hasPrefix("The factory of FeedRanking (registered at \(#fileID):")
                    && text(of: issue).hasSuffix("threw: no ranking model")
            }
        }
        #expect(report?.problems.map(\.code) == [.factoryFailed])
    }

    @Test("records an error installing the module, and returns no report")
    func reportsAnInstallError() async {
        var report: ValidationReport?
        await withKnownIssue {
            report = await expectValid(module: FeedModule(configureFails: true), fakes: [FakeStorage()])
        } matching: { issue in
            text(of: issue).hasPrefix("Installing FeedModule failed: ") && text(of: issue).contains("no ranking model")
        }
        #expect(report == nil)
    }
}
