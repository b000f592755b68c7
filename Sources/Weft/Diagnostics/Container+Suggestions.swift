import WeftPrimitives

extension Container {
    /// The registered keys closest to `key`: same type under another name, then similar names.
    ///
    /// Bounded work: the edit distance is computed over at most ``suggestionCandidateLimit``
    /// registrations.
    func suggestions(for key: ServiceKey) -> [ServiceKey] {
        let candidates = Array(visibleRegistrations().keys)
        let sameType = candidates.filter { $0.typeName == key.typeName && $0 != key }
            .sorted { $0.description < $1.description }
        guard candidates.count <= Self.suggestionCandidateLimit else { return Array(sameType.prefix(3)) }
        let target = key.typeName.lowercased()
        let similar =
            candidates
            .filter { $0.typeName != key.typeName }
            .map { ($0, editDistance($0.typeName.lowercased(), target)) }
            .filter { $0.1 <= max(2, target.count / 3) }
            .sorted { ($0.1, $0.0.description) < ($1.1, $1.0.description) }
            .map(\.0)
        return Array((sameType + similar).prefix(3))
    }

    /// Above this many registrations, suggestions are only same-type registrations.
    static let suggestionCandidateLimit = 512
}
