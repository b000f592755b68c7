import BenchmarkFixtures
import CHeap
import Swinject
import Synchronization
import Weft

/// Weft's transient and graph-of-4 resolves against the floor (`SnapshotFloor`, the one the
/// package-benchmark suite uses); named registrations against inserting the same keys into a
/// plain dictionary.
enum SnapshotBaselineBenchmarks {
    static func run() {
        var rows: [[String]] = []
        func row(_ name: String, _ baseline: Double, _ subject: Double) -> [String] {
            [
                name, formatNanoseconds(baseline), formatNanoseconds(subject),
                String(format: "%.2f×", subject / baseline),
            ]
        }
        // Fastest of 9 repetitions, the two containers in turn and built afresh for each: medians
        // of the baselines swing 2× between runs here, a slow episode of a second or two must
        // hit both alike, and some containers stay slower than their twins (see ScalingBenchmarks).
        let resolves = fastestInTurns([
            {
                let snapshot = floorFixture()
                return measure(rounds: 5, iterations: 200_000) { blackHole(snapshot.resolve(TransientService.self)) }
            },
            {
                let weft = weftFixture()
                return measure(rounds: 5, iterations: 200_000) { blackHole(try? weft.require(TransientService.self)) }
            },
            {
                let snapshot = floorFixture()
                return measure(rounds: 5, iterations: 100_000) { blackHole(snapshot.resolve(GraphRoot.self)) }
            },
            {
                let weft = weftFixture()
                return measure(rounds: 5, iterations: 100_000) { blackHole(try? weft.require(GraphRoot.self)) }
            },
        ])
        for (index, name) in ["transient", "graph of 4"].enumerated() {
            rows.append(row(name, resolves[2 * index], resolves[2 * index + 1]))
        }
        for count in [1_000, 10_000, 100_000] {
            let names = (0..<count).map { "k\($0)" }
            let repetitions = count >= 100_000 ? 3 : 9
            // Building and dropping each container are timed apart: registering is the first,
            // and freeing a container of objects costs far more than freeing a dictionary. Each
            // contender's repetitions run back to back, so that each starts from the heap its
            // own last container left (in turns, the dictionary would pay for merging the
            // floor's freed objects).
            func fastestOf<T>(_ build: () -> T) -> (build: Double, teardown: Double) {
                let samples = (0..<repetitions).map { _ in measureBuildAndTeardown(build) }
                return (
                    (samples.map(\.build).min() ?? 0) / Double(count),
                    (samples.map(\.teardown).min() ?? 0) / Double(count)
                )
            }
            let dictionary = fastestOf { NamedRegistrations.plainDictionary(names) }
            let registrations = fastestOf { NamedRegistrations.weft(names) }
            let floor = fastestOf { NamedRegistrations.floor(names) }
            rows.append(
                row(
                    "\(count.formatted()) named registrations (per registration)", dictionary.build, registrations.build
                ))
            rows.append(row("  ↳ floor: one object per entry, inserted under a lock", dictionary.build, floor.build))
            rows.append(
                row("  ↳ freeing the container (per registration)", dictionary.teardown, registrations.teardown))
            rows.append(row("  ↳ freeing the floor's table (per registration)", dictionary.teardown, floor.teardown))
        }
        printTable(
            title:
                "Weft against a lock-free snapshot dictionary (registrations: a plain dictionary insert); resolves: fastest of 9 in turns; registrations: fastest of 9 (100,000: 3)",
            header: ["scenario", "baseline", "Weft", "Weft ÷ baseline"], rows: rows
        )
        heapPerRegistration()
    }

    /// Heap bytes each of 100,000 named registrations keeps (glibc's `mallinfo2`, bytes in use,
    /// measured around building each container and kept alive while measured).
    static func heapPerRegistration() {
        let count = 100_000
        let names = (0..<count).map { "k\($0)" }
        func bytes<T>(_ build: () -> T) -> Double {
            let before = cheap_bytes_in_use()
            let built = build()
            let after = cheap_bytes_in_use()
            withExtendedLifetime(built) {}
            return Double(Int(after) - Int(before)) / Double(count)
        }
        let plain = bytes { NamedRegistrations.plainDictionary(names) }
        let weft = bytes { NamedRegistrations.weft(names) }
        let swinject = bytes { () -> Swinject.Container in
            let container = Swinject.Container()
            for name in names { container.register(RegisteredService.self, name: name) { _ in RegisteredService() } }
            return container
        }
        printTable(
            title: "Heap per named registration, 100,000 of them (glibc mallinfo2, bytes in use)",
            header: ["plain dictionary of closures", "Weft", "Swinject 2.10.0"],
            rows: [
                [String(format: "%.0f B", plain), String(format: "%.0f B", weft), String(format: "%.0f B", swinject)]
            ]
        )
    }
}

/// The least a thread-safe container that keeps each registration as an object can do per
/// registration: allocate the object, take a lock, insert it under Weft's own key. No lifetimes,
/// contexts, staging, scopes or published tables.
final class LockedEntryTable: Sendable {
    final class Entry: Sendable {
        let key: ServiceKey
        let factory: @Sendable () -> any Sendable
        init(key: ServiceKey, factory: @escaping @Sendable () -> any Sendable) {
            self.key = key
            self.factory = factory
        }
    }

    private let entries = Mutex<[ServiceKey: Entry]>([:])

    func insert<T: Sendable>(_ type: T.Type, name: String, factory: @escaping @Sendable () -> T) {
        let entry = Entry(key: ServiceKey(type, name: name), factory: factory)
        entries.withLock { $0[entry.key] = entry }
    }
}
