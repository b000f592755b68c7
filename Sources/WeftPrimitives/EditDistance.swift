/// The Levenshtein distance between `a` and `b`, in characters: the fewest insertions,
/// deletions and substitutions that turn one into the other. For "did you mean" suggestions
/// (the container's missing keys, the start-up graph's step names, the app's command line).
package func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}

/// The candidate closest to `name`, if one is close enough to be a typo of it: within a third of
/// its length (at least 2 edits), the nearest first, ties by name. For "did you mean" in errors
/// that name something by a string (a module's dependency, a step's prerequisite).
package func closest(to name: String, among candidates: some Sequence<String>) -> String? {
    let limit = max(2, name.count / 3)
    return candidates.lazy.filter { $0 != name }.map { ($0, editDistance($0, name)) }.filter { $0.1 <= limit }
        .min { ($0.1, $0.0) < ($1.1, $1.0) }?.0
}
