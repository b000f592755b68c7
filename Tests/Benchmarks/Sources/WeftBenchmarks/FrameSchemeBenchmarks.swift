import Foundation

/// How a synchronous resolution keeps its path: Weft's tagged pointers to frames on the stack,
/// linked through a pthread slot, against a thread-local array of frames pushed and popped
/// (the alternative to Weft's scheme). Both check for a cycle on every step by
/// walking the path, as Weft does; the factory bodies are empty, so only the scheme's cost
/// shows. Depth D: a chain of D nested steps, ns per step.
enum FrameSchemeBenchmarks {
    static func run() {
        var rows: [[String]] = []
        for depth in [1, 4, 32] {
            let iterations = 2_000_000 / depth
            let linked = measure(rounds: 31, iterations: iterations) { blackHole(LinkedFrames.resolve(depth: depth)) }
            let array = measure(rounds: 31, iterations: iterations) { blackHole(ArrayFrames.resolve(depth: depth)) }
            rows.append([
                "\(depth)", formatNanoseconds(linked / Double(depth)), formatNanoseconds(array / Double(depth)),
                String(format: "%.2f×", array / linked),
            ])
        }
        printTable(
            title: "Resolution path: tagged stack pointers vs a thread-local array (ns per nested step, median of 31)",
            header: ["depth", "stack frames, pthread slot (Weft)", "thread-local array", "array ÷ stack"],
            rows: rows
        )
    }
}

/// A step: a key (a type's address) and the containers that identify it.
private struct Step {
    let key: UInt
    let owner: UInt
    let resolver: UInt
}

// MARK: - Weft's scheme

private struct LinkedStep {
    let step: Step
    let parent: UnsafePointer<LinkedStep>?
}

private enum LinkedFrames {
    static let slot: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    @inline(never)
    static func resolve(depth: Int) -> Int {
        let parent = pthread_getspecific(slot).map { UnsafePointer<LinkedStep>(OpaquePointer($0)) }
        let step = Step(key: UInt(depth) &* 64, owner: 1, resolver: 1)
        var link = parent
        while let current = link {  // the cycle check walks the path
            if current.pointee.step.key == step.key, current.pointee.step.owner == step.owner { return -1 }
            link = current.pointee.parent
        }
        let frame = LinkedStep(step: step, parent: parent)
        return withUnsafePointer(to: frame) { pointer in
            pthread_setspecific(slot, UnsafeRawPointer(pointer))
            defer { pthread_setspecific(slot, parent.map { UnsafeRawPointer($0) }) }
            return depth > 1 ? resolve(depth: depth - 1) + 1 : 1
        }
    }
}

// MARK: - A thread-local array

private final class FrameArray {
    var steps: [Step] = []
    init() { steps.reserveCapacity(64) }
}

private enum ArrayFrames {
    static let slot: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, { raw in raw.map { Unmanaged<FrameArray>.fromOpaque($0).release() } })
        return key
    }()

    static var current: FrameArray {
        if let raw = pthread_getspecific(slot) { return Unmanaged<FrameArray>.fromOpaque(raw).takeUnretainedValue() }
        let array = FrameArray()
        pthread_setspecific(slot, Unmanaged.passRetained(array).toOpaque())
        return array
    }

    @inline(never)
    static func resolve(depth: Int) -> Int {
        let frames = current
        let step = Step(key: UInt(depth) &* 64, owner: 1, resolver: 1)
        for existing in frames.steps where existing.key == step.key && existing.owner == step.owner { return -1 }
        frames.steps.append(step)
        defer { frames.steps.removeLast() }
        return depth > 1 ? resolve(depth: depth - 1) + 1 : 1
    }
}
