/// One cat fact as served over HTTP: `{"fact": String, "length": Int}`.
///
/// This is catfact.ninja's public contract, spoken by both ``FactService`` and ``FactServer``.
public struct CatFact: Sendable, Hashable, Codable {
    /// The fact, as plain text.
    public var fact: String
    /// The fact's length in characters, as reported by the server.
    public var length: Int

    /// Creates a fact; `length` defaults to the text's character count.
    public init(fact: String, length: Int? = nil) {
        self.fact = fact
        self.length = length ?? fact.count
    }
}
