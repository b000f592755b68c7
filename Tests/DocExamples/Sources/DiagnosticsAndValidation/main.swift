// doc begins
import Logging
import Weft

let container = Container()
let metrics = Metrics()  // your metrics client
container.diagnostics.logger = Logger(label: "shop.weft")  // else Logger(label: "weft")
container.diagnostics.onResolutionError = { error in metrics.increment("weft.error.\(error.code)") }
container.diagnostics.slowResolutionThreshold = .milliseconds(50)
container.diagnostics.onSlowResolution = { key, duration in metrics.record("\(key)", duration) }
// doc ends

// The hooks are called: a missing registration and a slow factory.
container.register(Feed.self) { r in Feed(database: try r.resolve(Database.self)) }
container.register(Session.self) { slowSession() }
_ = try? container.require(Feed.self)
_ = try container.require(Session.self)
precondition(metrics.count("weft.error.notRegistered") == 1 && metrics.count("Session") == 1)

try traceResolves()
await validateACaptive()
try await keepSideEffectsOutOfValidation()
try scopedOutsideAScope()
await drawTheGraph()
try await checkHealth()
tellErrorsApart()
