import Foundation
import Testing
import WeftPrimitives

@Suite("ThreadLocalSlot: one pointer per thread")
struct ThreadLocalSlotTests {
    /// Runs `body` on a thread of its own and waits for it.
    private func onNewThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.start()
        done.wait()
    }

    @Test("A value set on one thread is that thread's alone; another starts with nil and keeps its own")
    func perThread() {
        let slot = ThreadLocalSlot()
        slot.value = UnsafeMutableRawPointer(bitPattern: 0x1000)
        let seen = Locked<[Int]>([])
        onNewThread {
            seen.withLock { $0.append(Int(bitPattern: slot.value)) }
            slot.value = UnsafeMutableRawPointer(bitPattern: 0x2000)
            seen.withLock { $0.append(Int(bitPattern: slot.value)) }
        }
        #expect(seen.withLock { $0 } == [0, 0x2000])
        #expect(slot.value == UnsafeMutableRawPointer(bitPattern: 0x1000))
        slot.value = nil
        #expect(slot.value == nil)
    }

    @Test("Two slots on one thread hold two values")
    func slotsAreIndependent() {
        let first = ThreadLocalSlot()
        let second = ThreadLocalSlot()
        first.value = UnsafeMutableRawPointer(bitPattern: 0x10)
        #expect(second.value == nil)
        second.value = UnsafeMutableRawPointer(bitPattern: 0x20)
        #expect(first.value == UnsafeMutableRawPointer(bitPattern: 0x10))
        first.value = nil
        second.value = nil
    }
}
