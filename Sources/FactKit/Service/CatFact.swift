/// One cat fact as served over HTTP: `{"fact": String, "length": Int}`.
///
/// This is catfact.ninja's public contract, spoken by both ``FactService`` and ``FactServer``.
package struct CatFact: Sendable, Hashable, Codable {
    /// The fact, as plain text.
    package var fact: String
    /// The fact's length in characters, as reported by the server.
    package var length: Int

    /// Creates a fact; `length` defaults to the text's character count.
    package init(fact: String, length: Int? = nil) {
        self.fact = fact
        self.length = length ?? fact.count
    }
}
