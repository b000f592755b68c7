import Testing
@testable import WeftTUI

@MainActor @Test("dump") func dump() {
    let screens: [any Screen] = [Fixtures.splash, Fixtures.fact, Fixtures.error, Fixtures.menu, Fixtures.diagnostics]
    for size in [Fixtures.large, Fixtures.small, Fixtures.tooSmall] {
        for s in screens {
            let b = ScreenBuffer(size: size)
            s.render(on: b)
            print("+" + String(repeating: "-", count: size.columns) + "+")
            for l in b.lines { print("|" + TextLayout.pad(l, toWidth: size.columns) + "|") }
        }
    }
    let b = ScreenBuffer(size: Fixtures.large)
    Fixtures.fact.render(on: b, overlay: Fixtures.help)
    for l in b.lines { print("|" + TextLayout.pad(l, toWidth: 80) + "|") }
}
