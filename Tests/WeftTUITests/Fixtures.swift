import FactKit
import Foundation
import Testing

@testable import WeftTUI
@testable import WeftTerminal

/// Sample view states shared by the screen tests.
enum Fixtures {
    static let large = TerminalSize(rows: 24, columns: 80)
    static let small = TerminalSize(rows: 16, columns: 60)
    /// The smallest size laid out: every screen's compact layout.
    static let compact = TerminalSize(rows: 12, columns: 40)
    static let tooSmall = TerminalSize(rows: 11, columns: 39)

    static let logo = [
        "█   █ █▀▀▀ █▀▀▀ ▀█▀",
        "█ █ █ █▀▀  █▀▀   █ ",
        "▀▀ ▀▀ ▀▀▀▀ ▀     ▀ ",
    ]

    static let splash = SplashView(
        logo: logo,
        environment: "embedded",
        steps: [
            .init(title: "Open history database", phase: "pre-sync", state: .done(milliseconds: 12)),
            .init(title: "Start fact server", phase: "async", state: .running(frame: 3)),
            .init(title: "Load bundled facts", phase: "async", state: .running(frame: 3)),
            .init(title: "Fetch first fact", phase: "post-sync", state: .pending),
        ]
    )

    static let fact = FactView(
        fact: "Cats sleep for around 13 to 16 hours a day, which is roughly 70 percent of their lives; "
            + "a cat that is nine years old has been awake for only three years of its life.",
        environment: "embedded",
        latencyMilliseconds: 14,
        seenCount: 3,
        historyCount: 42
    )

    static let error = ErrorView(
        environment: "broken",
        stepTitle: "Fetch first fact",
        phase: "post-sync",
        message: "could not connect to http://127.0.0.1:9 (connection refused)",
        hint: "is the server running? try `weft serve --port 8089`",
        elapsedMilliseconds: 1234
    )

    static let menu = EnvironmentMenuView(
        options: [
            .init(name: "embedded", detail: "bundled fact server on loopback, no network"),
            .init(name: "local", detail: "a `weft serve` on localhost:8089"),
            .init(name: "production", detail: "catfact.ninja over HTTPS"),
            .init(name: "broken", detail: "a port nothing listens on, to see the error screen"),
        ],
        currentEnvironment: "embedded",
        selectedIndex: 2
    )

    static let diagnostics = DiagnosticsView(
        environment: "embedded",
        registrations: [
            .init(name: "HistoryStore", lifetime: "singleton", isResolved: true),
            .init(name: "FactClient", lifetime: "singleton", isResolved: true),
            .init(name: "FactServer", lifetime: "singleton", isResolved: true),
            .init(name: "Clock", lifetime: "transient", isResolved: false),
        ],
        timeline: [
            .init(label: "Open history database", startMilliseconds: 0, durationMilliseconds: 20),
            .init(label: "Start fact server", startMilliseconds: 20, durationMilliseconds: 120),
            .init(label: "Load bundled facts", startMilliseconds: 20, durationMilliseconds: 60),
            .init(label: "Fetch first fact", startMilliseconds: 140, durationMilliseconds: 40),
        ]
    )

    static let help = HelpOverlay(entries: fact.keyHints.map { KeyHint($0.key, $0.label) })

    static let historyEntries = [
        HistoryEntry(
            text: "A group of cats is called a clowder.", timesSeen: 3,
            lastSeen: Date(timeIntervalSince1970: 1_790_000_000), environment: "embedded"),
        HistoryEntry(
            text: "Cats have five toes on their front paws and four on the back, unless they are polydactyl.",
            timesSeen: 1, lastSeen: Date(timeIntervalSince1970: 1_789_000_000), environment: "staging"),
        HistoryEntry(
            text: "A cat's purr vibrates at 25 to 150 hertz.", timesSeen: 2,
            lastSeen: Date(timeIntervalSince1970: 1_788_000_000), environment: "embedded"),
    ]
}

/// Renders `screen` into a fresh buffer.
@MainActor
func render(
    _ screen: any Screen, size: TerminalSize = Fixtures.large, isMonochrome: Bool = false, isUnicode: Bool = true,
    overlay: HelpOverlay? = nil
) -> ScreenBuffer {
    let buffer = ScreenBuffer(size: size, isMonochrome: isMonochrome, isUnicode: isUnicode)
    screen.render(on: buffer, overlay: overlay)
    return buffer
}

/// Checks the chrome every screen shares: title bar on top, key-hint bar at the bottom.
@MainActor
func expectChrome(_ buffer: ScreenBuffer, screen: any Screen, sourceLocation: SourceLocation = #_sourceLocation) {
    let top = buffer.text(at: 0)
    let bottom = buffer.text(at: buffer.size.rows - 1)
    #expect(top.hasPrefix(" weft"), "title bar:\n\(buffer.rendered)", sourceLocation: sourceLocation)
    if let environment = screen.environmentName {
        #expect(
            top.contains(environment), "title bar names the environment:\n\(buffer.rendered)",
            sourceLocation: sourceLocation)
    }
    #expect(
        top.hasSuffix(screen.title), "title bar names the screen:\n\(buffer.rendered)", sourceLocation: sourceLocation)
    if let last = screen.keyHints.last {
        #expect(
            bottom.contains("\(last.key) \(last.label)"), "hint bar keeps the last hint:\n\(buffer.rendered)",
            sourceLocation: sourceLocation)
    }
    if screen.keyHints.contains(where: { $0.key == "?" }) {
        #expect(bottom.contains("? help"), "hint bar keeps ? help:\n\(buffer.rendered)", sourceLocation: sourceLocation)
    }
    let theme = Theme(isMonochrome: buffer.isMonochrome)
    #expect(buffer.style(row: 0, column: 0) == theme.titleBar, sourceLocation: sourceLocation)
    #expect(
        buffer.style(row: buffer.size.rows - 1, column: buffer.size.columns - 1) == theme.hintBar,
        sourceLocation: sourceLocation)
}

/// Checks that a monochrome rendering uses no colour role anywhere.
@MainActor
func expectNoColor(_ buffer: ScreenBuffer, sourceLocation: SourceLocation = #_sourceLocation) {
    var roles: Set<ColorRole> = []
    for row in 0..<buffer.size.rows {
        for column in 0..<buffer.size.columns {
            if let style = buffer.style(row: row, column: column) { roles.insert(style.role) }
        }
    }
    #expect(roles == [.normal], sourceLocation: sourceLocation)
}
