import WeftPrimitives

extension Container {
    /// The registered keys closest to `key`: same type under another name, then types whose
    /// name holds the key's or is held by it (a protocol `Logger` for `ConsoleLogger`, and the
    /// other way), then similar names.
    ///
    /// Bounded work: the edit distance is computed over at most ``suggestionCandidateLimit``
    /// registrations.
    func suggestions(for key: ServiceKey) -> [ServiceKey] {
        let candidates = Array(visibleRegistrations().keys)
        let sameType = candidates.filter { $0.typeName == key.typeName && $0 != key }
            .sorted { $0.description < $1.description }
        guard candidates.count <= Self.suggestionCandidateLimit else { return Array(sameType.prefix(3)) }
        let related = candidates.filter { Self.namesHoldEachOther($0.typeName, key.typeName) }
            .sorted { $0.description < $1.description }
        let target = key.typeName.lowercased()
        let similar =
            candidates
            .filter { $0.typeName != key.typeName && !related.contains($0) }
            .map { ($0, editDistance($0.typeName.lowercased(), target)) }
            .filter { $0.1 <= max(2, target.count / 3) }
            .sorted { ($0.1, $0.0.description) < ($1.1, $1.0.description) }
            .map(\.0)
        return Array((sameType + related + similar).prefix(3))
    }

    /// Whether one of two type names holds the other (`ConsoleLogger` and `Logger`): most often
    /// a protocol and a type that conforms to it, the one registered and the other asked for.
    /// (Swift cannot ask at run time whether a type conforms to a protocol known only as a
    /// value, nor print an existential's type as other than its protocol's name.)
    static func namesHoldEachOther(_ one: String, _ other: String) -> Bool {
        guard one != other, min(one.count, other.count) >= 3 else { return false }
        return one.contains(other) || other.contains(one)
    }

    /// Above this many registrations, suggestions are only same-type registrations.
    static let suggestionCandidateLimit = 512
}
