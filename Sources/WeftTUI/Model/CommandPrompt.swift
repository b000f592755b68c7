import Weft
import WeftPrimitives

/// A command typed on the command line, after `:`.
enum AppCommand: Sendable, Hashable {
    /// `env NAME`: switch to the environment and start up again.
    case environment(String)
    /// `retry`: start up again in the environment shown.
    case retry
    /// `next`: the next fact.
    case next
    /// `history`: the facts shown so far.
    case history
    /// `diagnostics`: the container and the last run.
    case diagnostics
    /// `startup`: the last start-up's critical chain.
    case startup
    /// `help`: the keys and the commands.
    case help
    /// `quit`.
    case quit

    /// One command as help and completion show it.
    struct Entry: Sendable, Hashable {
        /// What is typed, such as `env`.
        var name: String
        /// The argument it takes, such as `NAME`, or `nil`.
        var argument: String?
        /// What it does.
        var summary: String
    }

    /// Every command, in the order help lists them.
    static let entries: [Entry] = [
        Entry(name: "env", argument: "NAME", summary: "switch to environment NAME and start up again"),
        Entry(name: "retry", summary: "start up again in this environment"),
        Entry(name: "next", summary: "the next fact"),
        Entry(name: "history", summary: "every fact shown, times seen, when, where"),
        Entry(name: "diagnostics", summary: "the container's services and the last run"),
        Entry(name: "startup", summary: "the last start-up's critical chain: where its time went"),
        Entry(name: "help", summary: "the keys and these commands"),
        Entry(name: "quit", summary: "quit weft"),
    ]

    /// The command names, in help order.
    static var names: [String] { entries.map(\.name) }

    /// Why a command line cannot run, in a sentence that says what to type instead.
    struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// The sentence.
        var description: String
    }

    /// The command `text` spells, given the environments `env` can switch to (empty when
    /// unknown: the name is then checked when the run starts).
    ///
    /// A command may be shortened to any prefix only it starts with (`d` is `diagnostics`,
    /// `q` is `quit`). An unknown word names the nearest commands.
    static func parse(_ text: String, environments: [String]) -> Result<AppCommand, Problem> {
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let word = words.first else {
            return .failure(Problem(description: "Type a command: \(names.joined(separator: ", "))"))
        }
        let name: String
        if names.contains(word) {
            name = word
        } else {
            let starting = names.filter { $0.hasPrefix(word.lowercased()) }
            guard starting.count == 1 else {
                if starting.count > 1 {
                    return .failure(
                        Problem(description: "\"\(word)\" could be \(list(starting, or: true)): type more of it"))
                }
                let near = nearest(to: word.lowercased(), in: names)
                let suggestion = near.isEmpty ? "" : " Did you mean \(list(near, or: true))?"
                return .failure(
                    Problem(
                        description:
                            "Unknown command \"\(word)\".\(suggestion) Commands: \(names.joined(separator: ", "))"))
            }
            name = starting[0]
        }
        let arguments = Array(words.dropFirst())
        if name == "env" {
            guard arguments.count == 1 else {
                let known = environments.isEmpty ? "" : ": \(environments.joined(separator: ", "))"
                return .failure(
                    Problem(
                        description: arguments.isEmpty
                            ? "env needs an environment's name\(known)"
                            : "env takes one environment's name, not \(arguments.count)\(known)"))
            }
            let requested = arguments[0]
            guard environments.isEmpty || environments.contains(requested) else {
                let near = nearest(to: requested, in: environments)
                let suggestion = near.isEmpty ? "" : " Did you mean \(list(near, or: true))?"
                return .failure(
                    Problem(
                        description:
                            "No environment \"\(requested)\".\(suggestion) Environments: \(environments.joined(separator: ", "))"
                    ))
            }
            return .success(.environment(requested))
        }
        guard arguments.isEmpty else {
            return .failure(Problem(description: "\(name) takes no argument: type \(name) alone"))
        }
        switch name {
        case "retry": return .success(.retry)
        case "next": return .success(.next)
        case "history": return .success(.history)
        case "diagnostics": return .success(.diagnostics)
        case "startup": return .success(.startup)
        case "help": return .success(.help)
        default: return .success(.quit)
        }
    }

    /// The entries of `candidates` within two edits of `word`, or that start with its first
    /// two letters, nearest first.
    static func nearest(to word: String, in candidates: [String]) -> [String] {
        let scored = candidates.map { ($0, editDistance(word, $0)) }
        return scored.filter { candidate, distance in
            distance <= 2 || (word.count >= 2 && candidate.hasPrefix(String(word.prefix(2))))
        }
        .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        .map(\.0)
    }

    private static func list(_ words: [String], or: Bool) -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + (or ? " or " : " and ") + (words.last ?? "")
    }
}

/// The command line's state while it is open: the text, the caret, the earlier commands being
/// browsed, and a line above the prompt (completions, or why the command cannot run).
struct CommandPrompt: Sendable, Hashable {
    /// The text typed after `:`.
    private(set) var text = ""
    /// Where typing goes, in characters from the start.
    private(set) var caret = 0
    /// The line above the prompt: the completions to choose from, or a problem; `nil` for none.
    var message: String?
    /// Whether ``message`` reports a problem (drawn as a warning) rather than choices.
    var isProblem = false
    /// The commands run before, oldest first, and which is shown while browsing with ↑↓.
    private(set) var earlier: [String]
    private var browsing: Int?
    private var draft = ""

    /// An empty prompt that browses `earlier`, the commands run before (oldest first).
    init(earlier: [String] = []) {
        self.earlier = earlier
    }

    /// Types `character` at the caret.
    ///
    /// A combining mark, a variation selector or a joiner typed after a character joins it, so
    /// the text may grow by no character: the caret is counted again, not just moved on.
    mutating func insert(_ character: Character) {
        let characters = Array(text)
        let before = String(characters[..<caret]) + String(character)
        text = before + String(characters[caret...])
        caret = min(before.count, text.count)
        message = nil
    }

    /// Deletes the character before the caret; `false` when there was none.
    @discardableResult
    mutating func deleteBackward() -> Bool {
        guard caret > 0 else { return false }
        let characters = Array(text)
        let before = String(characters[..<(caret - 1)])
        text = before + String(characters[caret...])
        caret = min(before.count, text.count)
        message = nil
        return true
    }

    /// Moves the caret by `offset` characters, within the text.
    mutating func moveCaret(by offset: Int) {
        caret = min(max(0, caret + offset), text.count)
    }

    /// Moves the caret to the start (`toEnd` false) or the end of the text.
    mutating func moveCaret(toEnd: Bool) {
        caret = toEnd ? text.count : 0
    }

    /// Replaces the text (the caret goes to its end).
    mutating func setText(_ text: String) {
        self.text = text
        caret = text.count
    }

    /// Shows the command run before the one shown (↑); the text typed so far comes back after
    /// the newest (↓).
    mutating func browse(older: Bool) {
        guard !earlier.isEmpty else { return }
        if browsing == nil {
            guard older else { return }
            draft = text
            browsing = earlier.count - 1
        } else if let index = browsing {
            let next = index + (older ? -1 : 1)
            if next >= earlier.count {
                browsing = nil
                setText(draft)
                return
            }
            browsing = max(0, next)
        }
        if let browsing { setText(earlier[browsing]) }
        message = nil
    }

    /// Completes the word at the end of the text (Tab): a command's name, or after `env ` an
    /// environment's. One match is typed out; several are typed up to where they differ and
    /// listed in ``message``; none says so.
    mutating func complete(environments: [String]) {
        let endsInSpace = text.last?.isWhitespace ?? false
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        let (typed, candidates, prefix): (String, [String], String)
        if words.isEmpty || (words.count == 1 && !endsInSpace) {
            (typed, candidates, prefix) = (words.first ?? "", AppCommand.names, "")
        } else if words.first.map({ "env".hasPrefix($0) && !$0.isEmpty }) == true,
            words.count == 1 || (words.count == 2 && !endsInSpace)
        {
            (typed, candidates, prefix) = (words.count == 2 ? words[1] : "", environments, "env ")
        } else {
            message = nil
            return
        }
        let matches = candidates.filter { $0.hasPrefix(typed) }
        switch matches.count {
        case 0:
            message = candidates.isEmpty ? "nothing to complete" : "no match for \"\(typed)\""
            isProblem = true
        case 1:
            let completed = matches[0]
            let takesArgument = prefix.isEmpty && AppCommand.entries.first { $0.name == completed }?.argument != nil
            setText(prefix + completed + (takesArgument ? " " : ""))
            message = nil
        default:
            setText(prefix + Self.commonPrefix(matches))
            message = matches.joined(separator: "  ")
            isProblem = false
        }
    }

    /// The command to remember after running it: the text, unless empty or the same as the last.
    func remembered() -> [String] {
        let trimmed = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !trimmed.isEmpty, earlier.last != trimmed else { return earlier }
        return Array((earlier + [trimmed]).suffix(Self.rememberedLimit))
    }

    /// How many earlier commands ↑ reaches.
    static let rememberedLimit = 50

    private static func commonPrefix(_ words: [String]) -> String {
        guard var prefix = words.first else { return "" }
        for word in words.dropFirst() {
            while !word.hasPrefix(prefix) { prefix.removeLast() }
        }
        return prefix
    }
}
