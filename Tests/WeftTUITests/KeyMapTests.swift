import Testing
import WeftApp

@testable import WeftInitializer
@testable import WeftTUI
@testable import WeftTerminal

/// The one key-map table: what the bars and help show is what the keys do, and advice names
/// the keys the table binds.
@Suite("Key map")
struct KeyMapTests {
    static let contexts: [KeyContext] = [
        .splash, .main, .error(environment: "broken"), .environmentMenu, .diagnostics, .history, .historyEntry,
        .startup, .help,
    ]

    @Test(": opens the command line everywhere but in help; every bar hint does its key's action", arguments: contexts)
    func commandLineAndClicks(context: KeyContext) {
        #expect(KeyMap.action(for: .char(":"), in: context) == (context == .help ? nil : .openCommandLine))
        for hint in KeyMap.barHints(in: context) {
            let binding = KeyMap.bindings(in: context).first { $0.bar?.key == hint.key }
            // `↑↓` stands for two keys: a click on it does nothing.
            let expected = binding?.action == .moveUp ? nil : binding?.action
            #expect(hint.action == expected && (hint.action != nil || hint.key == "↑↓"), "\(hint.key) in \(context)")
        }
    }

    @Test("Every key the hint bar or the help shows does what the table says, in its context", arguments: contexts)
    func shownKeysAreBound(context: KeyContext) {
        for binding in KeyMap.bindings(in: context) {
            #expect(!binding.keys.isEmpty)
            for key in binding.keys {
                #expect(KeyMap.action(for: key, in: context) == binding.action, "\(key) in \(context)")
            }
        }
        #expect(!KeyMap.barHints(in: context).isEmpty)
    }

    @Test("No key is bound twice in one context", arguments: contexts)
    func keysAreUnique(context: KeyContext) {
        let keys = KeyMap.bindings(in: context).flatMap(\.keys)
        #expect(Set(keys).count == keys.count, "\(context)")
    }

    @Test("Ctrl-C quits from every context; unknown keys do nothing", arguments: contexts)
    func ctrlCEverywhere(context: KeyContext) {
        #expect(KeyMap.action(for: .ctrlC, in: context) == .interrupt)
        #expect(KeyMap.action(for: .unknown(999), in: context) == nil)
        #expect(KeyMap.action(for: .resize, in: context) == nil)
    }

    @Test("The advice on the error screen names the keys the table binds for retry and environments")
    func adviceNamesBoundKeys() throws {
        let errorScreen = KeyContext.error(environment: "broken")
        let retry = try #require(KeyMap.key(for: .retry, in: errorScreen))
        let choose = try #require(KeyMap.key(for: .chooseEnvironment, in: errorScreen))
        #expect(FailureAdvice.Phrasing.keys.retry == "Retry (\(retry))")
        #expect(FailureAdvice.Phrasing.keys.pickAnother == "pick another environment (\(choose))")
        let hint = FailureAdvice.hint(
            for: InitializationStepTimeoutError(stepTitle: "Fetch", timeout: .seconds(1)), environment: nil,
            phrasing: .keys)
        #expect(hint == "The step took too long. Retry (r), or pick another environment (e).")
        #expect(KeyMap.action(for: .char("r"), in: errorScreen) == .retry)
        #expect(KeyMap.action(for: .char("e"), in: errorScreen) == .chooseEnvironment)
    }

    @Test("The command line's advice names options, never keys")
    func commandLineAdviceHasNoKeys() {
        let hint = FailureAdvice.hint(
            for: InitializationStepTimeoutError(stepTitle: "Fetch", timeout: .seconds(1)), environment: nil)
        #expect(hint == "The step took too long. Run weft again, or choose another environment with --env NAME.")
    }
}
