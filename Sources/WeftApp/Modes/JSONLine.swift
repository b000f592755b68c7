import Foundation

/// Encodes one value as one line of JSON: sorted keys, unescaped slashes, ISO 8601 dates.
enum JSONLine {
    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            return #"{"error":"could not encode a JSON line"}"#
        }
    }
}
