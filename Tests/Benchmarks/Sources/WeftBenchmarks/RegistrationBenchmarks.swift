import Weft

/// Registering only, for comparing two versions of Weft on a noisy machine: the plain
/// dictionary, Weft and the floor (``LockedEntryTable``) take turns, one container of `count`
/// names each, for `rounds` rounds, so that a burst of load hits all three alike.
///
/// `WeftBenchmarks registrations [count] [rounds]` (1,000 and 200 unless given).
enum RegistrationBenchmarks {
    static func run(count: Int, rounds: Int) {
        let names = (0..<count).map { "k\($0)" }
        var samples: [[Double]] = [[], [], []]
        for _ in 0..<rounds {
            samples[0].append(time { blackHole(NamedRegistrations.plainDictionary(names)) })
            samples[1].append(time { blackHole(NamedRegistrations.weft(names)) })
            samples[2].append(time { blackHole(NamedRegistrations.floor(names)) })
        }
        let perRegistration = samples.map { $0.map { $0 / Double(count) }.sorted() }
        let dictionary = perRegistration[0]
        let rows = zip(["plain dictionary", "Weft", "floor (object + lock)"], perRegistration).map { name, sorted in
            [
                name, formatNanoseconds(sorted[0]), formatNanoseconds(sorted[sorted.count / 2]),
                String(format: "%.2f×", sorted[0] / dictionary[0]),
                String(format: "%.2f×", sorted[sorted.count / 2] / dictionary[dictionary.count / 2]),
            ]
        }
        printTable(
            title: "\(count.formatted()) named registrations, per registration, \(rounds) interleaved rounds",
            header: ["subject", "fastest", "median", "fastest ÷ dictionary's", "median ÷ dictionary's"], rows: rows
        )
    }

    private static func time(_ body: () -> Void) -> Double {
        measure(rounds: 1, iterations: 1, body)
    }
}

/// What every registration benchmark builds from the same names: the plain dictionary it is
/// measured against, Weft, and the floor (one object per entry, under a lock).
enum NamedRegistrations {
    static func plainDictionary(_ names: [String]) -> [String: @Sendable () -> RegisteredService] {
        var plain: [String: @Sendable () -> RegisteredService] = [:]
        for name in names { plain[name] = { RegisteredService() } }
        return plain
    }

    static func weft(_ names: [String]) -> Weft.Container {
        let container = Weft.Container()
        for name in names { container.register(RegisteredService.self, name: name) { RegisteredService() } }
        return container
    }

    static func floor(_ names: [String]) -> LockedEntryTable {
        let table = LockedEntryTable()
        for name in names { table.insert(RegisteredService.self, name: name) { RegisteredService() } }
        return table
    }
}
