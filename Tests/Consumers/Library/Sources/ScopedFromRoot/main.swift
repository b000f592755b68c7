// A shipped app's mistake: a `.scoped` service resolved from the root container, which is no
// scope. A release build makes the value and warns; with no logging set up, the warning goes to
// standard error (swift-log's default), where scripts/check-consumer looks for it.
import Weft

final class Session: Sendable {}

let container = Container()
container.register(Session.self, lifetime: .scoped) { Session() }
_ = try container.require(Session.self)
print("made")
