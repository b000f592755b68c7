import Foundation
import WeftPrimitives

extension Duration {
    /// The duration in seconds, for Foundation APIs that take a `TimeInterval`.
    var timeInterval: TimeInterval { secondsValue }

    /// A readable form such as `3 s` or `250 ms`, for error messages.
    var readable: String {
        let interval = timeInterval
        if interval >= 1 {
            return interval.rounded() == interval ? "\(Int(interval)) s" : String(format: "%.1f s", interval)
        }
        return "\(Int((interval * 1000).rounded())) ms"
    }
}
