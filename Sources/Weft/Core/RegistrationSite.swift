/// Where a service was registered: the `#fileID` and `#line` of the `register` call.
///
/// Every `register` overload takes `file` and `line` with those defaults, so the site is
/// captured where the call is written, at no cost to resolving. Errors and validation problems
/// name it: `Feed (registered at App/main.swift:12) needs Missing, which is not registered.`
/// A wrapper that registers on its callers' behalf can pass its own callers' `file` and `line`.
public struct RegistrationSite: Sendable, Hashable, CustomStringConvertible {
    /// The file, as `#fileID` gives it: `Module/File.swift`.
    public let fileID: String
    /// The line of the `register` call.
    public let line: Int

    public init(fileID: String, line: Int) {
        self.fileID = fileID
        self.line = line
    }

    public var description: String { "\(fileID):\(line)" }
}
