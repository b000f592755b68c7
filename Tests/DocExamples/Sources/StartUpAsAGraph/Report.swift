import WeftInitializer

/// The report block, on the result of the first block.
@MainActor
func printTheReport() {
    // doc begins
    let report = result.report
    for timing in report.criticalChain {
        print("\(timing.step.id) at \(timing.startOffset) took \(timing.duration)")  // fact at … seconds took … seconds
    }
    for timing in report.blame.prefix(3) {
        print(timing.duration, timing.step.title, "\(timing.attempts) attempt(s)")  // … Open the history 1 attempt(s)
    }
    // doc ends
}
