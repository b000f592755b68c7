import CFuzzerDriver
import Foundation

// One binary, one libFuzzer target per parser of untrusted input, chosen by the first argument:
//
//     WeftFuzz TARGET [libFuzzer options] [corpus folders]
//     WeftFuzz throughput [--check]     (Throughput.swift)
//
// Built by scripts/fuzz with coverage instrumentation, AddressSanitizer and libFuzzer's
// runtime. Built plainly (as `swift build` does), it runs each file or folder given through
// TARGET once: the way to replay a crash under a debugger.

let arguments = CommandLine.arguments
if arguments.count >= 2, arguments[1] == "throughput" {
    exit(Throughput.run(check: arguments.dropFirst(2).contains("--check")))
}
guard let target = chosenTarget, let name = chosenName else {
    let names = allTargets.keys.sorted().joined(separator: ", ")
    FileHandle.standardError.write(
        Data("usage: WeftFuzz TARGET [libFuzzer options] [corpus…]; targets: \(names)\n".utf8))
    exit(2)
}

// libFuzzer reads its own options and corpus folders; the target's name is not one of them,
// and goes to the processes libFuzzer starts through the environment.
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
if targetNamedFirst {
    setenv("WEFT_FUZZ_TARGET", name, 1)
    argc -= 1
    argv = CommandLine.unsafeArgv.advanced(by: 1)
    argv?[0] = CommandLine.unsafeArgv[0]
}
let status = weft_fuzzer_run(&argc, &argv) { data, size in
    chosenTarget?(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
if status != -1 { exit(status) }

// Without libFuzzer: every file named, and every file in every folder named, once.
var inputs = 0
for path in arguments.dropFirst(2) where !path.hasPrefix("-") {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        FileHandle.standardError.write(Data("WeftFuzz: \(path) does not exist\n".utf8))
        exit(2)
    }
    let files =
        isDirectory.boolValue
        ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { "\(path)/\($0)" } : [path]
    for file in files {
        guard let data = FileManager.default.contents(atPath: file) else { continue }
        target([UInt8](data))
        inputs += 1
    }
}
print("WeftFuzz \(name): \(inputs) inputs passed (built without libFuzzer: replayed, not fuzzed)")
