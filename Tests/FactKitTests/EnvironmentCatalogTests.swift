import Foundation
import Testing
import WeftTestSupport

@testable import FactKit

@Suite("EnvironmentCatalog reads and validates environments files")
struct EnvironmentCatalogTests {
    private func parse(_ json: String) throws(EnvironmentCatalogError) -> EnvironmentCatalog {
        try EnvironmentCatalog(data: Data(json.utf8), file: "environments.json")
    }

    @Test("the bundled file ships embedded (default), staging, production and broken in menu order")
    func bundled() throws {
        let catalog = try EnvironmentCatalog.bundled()
        #expect(catalog.names == ["embedded", "staging", "production", "broken"])
        #expect(catalog.defaultEnvironment.name == "embedded")
        #expect(catalog.defaultEnvironment.source == .embedded)
        #expect(catalog.defaultEnvironment.fault == nil)
        let staging = try catalog.environment(named: "staging")
        #expect(staging.source == .remote(try #require(URL(string: "http://127.0.0.1:8089"))))
        #expect(
            try catalog.environment(named: "production").source
                == .remote(try #require(URL(string: "https://catfact.ninja"))))
        let broken = try catalog.environment(named: "broken")
        #expect(broken.source == .embedded)
        #expect(broken.fault == .http500)
        #expect(catalog.environments.allSatisfy { !$0.description.isEmpty })
    }

    @Test("a user file is read from disk, with a default timeout when timeoutSeconds is missing")
    func userFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let file = directory.appendingPathComponent("mine.json")
        try Data(
            #"""
            {"environments": [
              {"name": "local", "description": "My server", "source": "http://127.0.0.1:9000", "timeoutSeconds": 0.5},
              {"name": "slowpoke", "description": "Too slow", "source": "embedded", "fault": "slow"}
            ]}
            """#.utf8
        ).write(to: file)
        let catalog = try EnvironmentCatalog.load(contentsOf: file)
        #expect(catalog.file == file.path)
        #expect(catalog.names == ["local", "slowpoke"])
        #expect(catalog.environments[0].timeout == .milliseconds(500))  // as read from the file
        #expect(catalog.environments[1].timeout == Environment.defaultTimeout)
        #expect(catalog.environments[1].fault == .slow)
    }

    @Test("a missing file is reported with its path")
    func missingFile() throws {
        let url = URL(fileURLWithPath: "/nonexistent/weft-\(UUID().uuidString).json")
        let error = #expect(throws: EnvironmentCatalogError.self) { try EnvironmentCatalog.load(contentsOf: url) }
        guard case .unreadable(let file, _)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(file == url.path)
        #expect(error?.description.hasPrefix(url.path) == true)
    }

    @Test("invalid JSON names the file")
    func badJSON() {
        let error = #expect(throws: EnvironmentCatalogError.self) { try parse(#"{"environments": [ {"name": "x",  }"#) }
        guard case .invalidJSON(let file, _)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(file == "environments.json")
        #expect(error?.description.hasPrefix("environments.json: not valid JSON") == true)
    }

    @Test(
        "malformed fields are reported as file, field path and expectation",
        arguments: [
            (#"[]"#, "(top level)", "expected an object"),
            (#"{"envs": []}"#, "environments", "missing"),
            (#"{"environments": {}}"#, "environments", "expected a list of environments, got an object"),
            (#"{"environments": []}"#, "environments", "at least one"),
            (#"{"environments": [3]}"#, "environments[0]", "expected an object"),
            (
                #"{"environments": [{"description": "d", "source": "embedded"}]}"#, "environments[0].name",
                "missing; expected a string"
            ),
            (
                #"{"environments": [{"name": 7, "description": "d", "source": "embedded"}]}"#, "environments[0].name",
                "expected a string, got 7"
            ),
            (
                #"{"environments": [{"name": "a b", "description": "d", "source": "embedded"}]}"#,
                "environments[0].name", "without spaces"
            ),
            (#"{"environments": [{"name": "a", "source": "embedded"}]}"#, "environments[0].description", "missing"),
            (
                #"{"environments": [{"name": "a", "description": "d", "source": "embedded"}, {"name": "b", "description": "d", "source": "embedded"}, {"name": "c", "description": "d", "source": "ftp://x"}]}"#,
                "environments[2].source", #"expected "embedded" or an http(s) URL, got "ftp://x""#
            ),
            (
                #"{"environments": [{"name": "a", "description": "d", "source": "http://"}]}"#,
                "environments[0].source", "http(s) URL"
            ),
            (
                #"{"environments": [{"name": "a", "description": "d", "source": "embedded", "timeoutSeconds": "3"}]}"#,
                "environments[0].timeoutSeconds", #"got "3""#
            ),
            (
                #"{"environments": [{"name": "a", "description": "d", "source": "embedded", "timeoutSeconds": 0}]}"#,
                "environments[0].timeoutSeconds", "from 0.001 (1 ms) to 600, got 0"
            ),
            (
                #"{"environments": [{"name": "a", "description": "d", "source": "embedded", "timeoutSeconds": true}]}"#,
                "environments[0].timeoutSeconds", "got true"
            ),
            (
                #"{"environments": [{"name": "a", "description": "d", "source": "embedded", "fault": "explode"}]}"#,
                "environments[0].fault",
                #"expected one of "http-500", "slow", "garbage", "drop", "stuck-shutdown", got "explode""#
            ),
            (
                #"{"environments": [{"name": "a", "description": "d", "source": "https://catfact.ninja", "fault": "slow"}]}"#,
                "environments[0].fault", "only to the bundled server"
            ),
            (
                #"{"environments": [{"name": "a", "description": "d", "source": "embedded", "timeout": 3}]}"#,
                "environments[0].timeout", "unknown field"
            ),
            (
                #"{"environments": [{"name": "a", "description": "d", "source": "embedded"}, {"name": "a", "description": "e", "source": "embedded"}]}"#,
                "environments[1].name", "duplicate name \"a\" (already used by environments[0])"
            ),
        ])
    func malformed(json: String, field: String, problem: String) {
        let error = #expect(throws: EnvironmentCatalogError.self) { try parse(json) }
        guard case .invalidField(let file, let line, let actualField, let actualProblem)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(file == "environments.json")
        #expect(line == 1, "every sample is one line")
        #expect(actualField == field)
        #expect(actualProblem.contains(problem), "\(actualProblem)")
        #expect(error?.description.hasPrefix("environments.json:1: \(field): ") == true)
    }

    @Test("the documented example message for a bad source (UsingWeft.md, FactKit.md) is produced exactly")
    func exampleMessage() {
        let error = #expect(throws: EnvironmentCatalogError.self) {
            try parse(
                #"{"environments": [{"name": "a", "description": "d", "source": "embedded"}, {"name": "b", "description": "d", "source": "embedded"}, {"name": "c", "description": "d", "source": "ftp://x"}]}"#
            )
        }
        #expect(
            error?.description
                == #"environments.json:1: environments[2].source: expected "embedded" or an http(s) URL, got "ftp://x""#
        )
    }

    @Test("an unknown environment name lists the known ones")
    func unknownName() throws {
        let catalog = try EnvironmentCatalog.bundled()
        let error = #expect(throws: EnvironmentCatalogError.self) { try catalog.environment(named: "moon") }
        #expect(error == .unknownEnvironment(name: "moon", known: ["embedded", "staging", "production", "broken"]))
        #expect(
            error?.description
                == #"unknown environment "moon"; known environments: embedded, staging, production, broken"#)
    }
}

@Suite("EnvironmentCatalog.adding: a user file over the bundled list")
struct EnvironmentCatalogLayeringTests {
    @Test("a user environment of a bundled name replaces it in place; new ones follow; each keeps its file")
    func adding() throws {
        let bundled = try EnvironmentCatalog.bundled()
        let user = try EnvironmentCatalog(
            data: Data(
                #"""
                {"environments": [
                  {"name": "staging", "description": "My staging", "source": "http://127.0.0.1:9999"},
                  {"name": "mine", "description": "Mine", "source": "embedded"}
                ]}
                """#.utf8), file: "/home/a/.config/weft/environments.json")
        let merged = bundled.adding(user)
        #expect(merged.names == ["embedded", "staging", "production", "broken", "mine"])
        #expect(try merged.environment(named: "staging").description == "My staging")
        #expect(merged.file(of: "staging") == "/home/a/.config/weft/environments.json")
        #expect(merged.file(of: "mine") == "/home/a/.config/weft/environments.json")
        #expect(merged.file(of: "embedded") == "environments.json (bundled)")
        #expect(merged.defaultEnvironment.name == "embedded")
    }
}
