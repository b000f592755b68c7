import Testing

@testable import Weft

/// A key hashes its name once, when it is made, and tables mix that with the type's address
/// (`_rawHashValue`): these tests pin down that the shortcut keeps `Hashable`'s contract.
@Suite("Service keys")
struct ServiceKeyTests {
    @Test("Names that are equal as Swift strings are one key, however their characters are composed")
    func canonicalEquivalence() throws {
        // "é" precomposed and decomposed, and the Kelvin sign, which is canonically "K".
        let pairs = [("caf\u{E9}", "cafe\u{301}"), ("\u{212A}", "K")]
        for (registered, asked) in pairs {
            #expect(ServiceKey(Service.self, name: registered) == ServiceKey(Service.self, name: asked))
            #expect(
                Set([ServiceKey(Service.self, name: registered), ServiceKey(Service.self, name: asked)]).count == 1)
            let container = Container()
            container.register(Service.self, name: registered) { Service(id: 1) }
            #expect(try container.require(Service.self, name: asked).id == 1)
        }
    }

    @Test("Type and name both tell keys apart; no name is not the empty name")
    func distinctKeys() {
        let keys = [
            ServiceKey(Service.self), ServiceKey(Service.self, name: ""), ServiceKey(Service.self, name: "a"),
            ServiceKey(ServiceA.self), ServiceKey(ServiceA.self, name: "a"), ServiceKey(Int.self, name: "a"),
        ]
        #expect(Set(keys).count == keys.count)
        for (index, key) in keys.enumerated() {
            #expect(keys.firstIndex(of: key) == index)
        }
    }

    @Test("A word's home slot is within the table, and consecutive words spread over it")
    func homeSlots() {
        let slotCount = 64
        let shift = UInt.bitWidth - slotCount.trailingZeroBitCount
        var used = Set<Int>()
        for index in 0..<UInt(slotCount) {
            let home = OpenAddressing.home(of: 0x7F00_1000 + index, shift: shift)
            #expect((0..<slotCount).contains(home))
            used.insert(home)
        }
        // Golden-ratio hashing puts consecutive words in distinct slots, or nearly so.
        #expect(used.count >= slotCount * 3 / 4, "\(used.count) of \(slotCount) slots used")
        #expect(OpenAddressing.golden64 & 1 == 1)
    }

    @Test("Equal keys hash equally through a Hasher too, and a table's seed changes the raw hash")
    func hashing() {
        let one = ServiceKey(Service.self, name: "primary")
        let same = ServiceKey(Service.self, name: String("prim" + "ary"))
        #expect(one.hashValue == same.hashValue)
        var left = Hasher()
        var right = Hasher()
        left.combine(one)
        right.combine(same)
        #expect(left.finalize() == right.finalize())
        #expect(one._rawHashValue(seed: 1) == same._rawHashValue(seed: 1))
        #expect(one._rawHashValue(seed: 1) != one._rawHashValue(seed: 2))
    }

    @Test("100,000 named keys in one dictionary: every one found, none confused with another")
    func manyNames() {
        var table: [ServiceKey: Int] = [:]
        for index in 0..<100_000 { table[ServiceKey(Service.self, name: "k\(index)")] = index }
        #expect(table.count == 100_000)
        let misplaced = (0..<100_000).filter { (index: Int) in
            table[ServiceKey(Service.self, name: "k\(index)")] != index
        }
        #expect(misplaced.isEmpty)
        #expect(table[ServiceKey(ServiceA.self, name: "k1")] == nil)
    }
}
