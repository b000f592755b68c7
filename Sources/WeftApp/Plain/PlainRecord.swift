import Foundation

/// One JSON line of `--json` output. Fields that do not apply to an event are left out.
struct PlainRecord: Encodable, Sendable, Hashable {
    /// A step in the `started` event's plan.
    struct PlannedStep: Encodable, Sendable, Hashable {
        var step: String
        var phase: String
    }

    var event: String
    var step: String?
    var phase: String?
    var startMs: Int64?
    var attempt: Int?
    var ms: Int64?
    var steps: [PlannedStep]?
    var error: String?
    var hint: String?
    var cancelled: Bool?
    var text: String?
    var environment: String?
    var latencyMs: Int64?
    var timesSeen: Int?
    var factsStored: Int?
    var fetchedAt: Date?
    var failedSteps: [String]?
    /// For a `failed` event when the start-up ran out of time: `ms`, `pending` (each step's
    /// `id`, `step`, `phase`, `goingForMs`, `attempt`) and `nextStep`.
    var deadline: PlainFailure.Deadline?

    init(event: String) {
        self.event = event
    }

    /// The record as one line of JSON, keys in a fixed order.
    func jsonLine() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        do {
            return String(decoding: try encoder.encode(self), as: UTF8.self)
        } catch {
            // Strings, numbers and dates always encode; keep the promise of valid JSON anyway.
            return #"{"event":"error","error":"could not encode a JSON line"}"#
        }
    }
}
