import Dispatch
import Testing
import WeftPrimitives

@Suite("Locked: the one lock of every target")
struct LockedTests {
    @Test("Increments from many threads at once all count: the lock excludes")
    func excludes() {
        let counter = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    #if DEBUG && !os(Windows) && !os(WASI)
        @Test(
            "In a debug build, taking the lock again on the thread that holds it traps, naming the call, instead of hanging"
        )
        func relockTraps() async {
            await #expect(processExitsWith: .failure) {
                let state = Locked(0)
                state.withLock { _ in state.withLock { $0 += 1 } }
            }
        }
    #endif

    struct Refused: Error, Equatable {}

    @Test("A body that throws leaves the state as it left it, the lock free, and its typed error to the caller")
    func throwingBodyUnlocks() {
        let state = Locked([1])
        #expect(throws: Refused()) {
            try state.withLock { (values: inout [Int]) throws(Refused) in
                values.append(2)
                throw Refused()
            }
        }
        // Taken again from the same thread: a lock left held would never return here.
        #expect(state.withLock { $0 } == [1, 2])
    }

    @Test("A value made inside the lock comes out of it")
    func returnsValue() {
        let names = Locked(["a"])
        let count = names.withLock { names in
            names.append("b")
            return names.count
        }
        #expect(count == 2)
    }
}
