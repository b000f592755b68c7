import WeftTUI

/// Sample view states shared by the screen tests.
enum Fixtures {
    static let large = TerminalSize(rows: 24, columns: 80)
    static let small = TerminalSize(rows: 16, columns: 60)
    static let tooSmall = TerminalSize(rows: 15, columns: 59)

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
}
