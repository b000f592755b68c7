import BenchmarkFixtures
import Weft

/// Registering only, for comparing two versions of Weft on a noisy machine: the plain
/// dictionary, Weft and the floor (``LockedEntryTable``) take turns, one container of `count`
/// names each, for `rounds` rounds, so that a burst of load hits all three alike. Registering
/// and freeing the container are timed apart and reported in two tables.
///
/// `WeftBenchmarks registrations [count] [rounds]` (1,000 and 200 unless given).
enum RegistrationBenchmarks {
    static func run(count: Int, rounds: Int) {
        let names = (0..<count).map { "k\($0)" }
        let subjects: [(String, () -> Any)] = [
            ("plain dictionary", { NamedRegistrations.plainDictionary(names) }),
            ("Weft", { NamedRegistrations.weft(names) }),
            ("floor (object + lock)", { NamedRegistrations.floor(names) }),
        ]
        var builds = Array(repeating: [Double](), count: subjects.count)
        var teardowns = builds
        for _ in 0..<rounds {
            for (index, subject) in subjects.enumerated() {
                let sample = measureBuildAndTeardown(subject.1)
                builds[index].append(sample.build / Double(count))
                teardowns[index].append(sample.teardown / Double(count))
            }
        }
        for (what, samples) in [("registering", builds), ("freeing the container", teardowns)] {
            let sorted = samples.map { $0.sorted() }
            let dictionary = sorted[0]
            let rows = zip(subjects.map(\.0), sorted).map { name, times in
                [
                    name, formatNanoseconds(times[0]), formatNanoseconds(times[times.count / 2]),
                    String(format: "%.2f×", times[0] / dictionary[0]),
                    String(format: "%.2f×", times[times.count / 2] / dictionary[dictionary.count / 2]),
                ]
            }
            printTable(
                title:
                    "\(count.formatted()) named registrations, \(what), per registration, \(rounds) interleaved rounds",
                header: ["subject", "fastest", "median", "fastest ÷ dictionary's", "median ÷ dictionary's"], rows: rows
            )
        }
    }

    /// Builds one container of `count` names with `subject` (`weft`, `floor` or `dictionary`).
    static func once(_ subject: String, count: Int) {
        let names = (0..<count).map { "k\($0)" }
        switch subject {
        case "weft": blackHole(NamedRegistrations.weft(names))
        case "floor": blackHole(NamedRegistrations.floor(names))
        case "dictionary": blackHole(NamedRegistrations.plainDictionary(names))
        default: print("unknown subject \(subject): weft, floor or dictionary")
        }
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
