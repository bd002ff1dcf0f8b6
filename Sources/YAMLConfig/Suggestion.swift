/// "Did you mean": the one suggestion function of the package, for config keys, mapping columns, command-line
/// options and commands alike.
package enum Suggestion {
    /// The allowed word closest to `key`: one within edit distance 2 or one that is a prefix of the key or has it as
    /// a prefix (a prefix match ranks like distance 1); the earliest wins a tie. Nil when nothing is close.
    package static func closest(to key: String, among allowed: [String]) -> String? {
        var best: (key: String, rank: Int)?
        for candidate in allowed {
            let isPrefix = !key.isEmpty && !candidate.isEmpty && (candidate.hasPrefix(key) || key.hasPrefix(candidate))
            let rank = min(editDistance(key, candidate), isPrefix ? 1 : .max)
            if rank <= 2, rank < best?.rank ?? .max {
                best = (candidate, rank)
            }
        }
        return best?.key
    }

    /// Levenshtein distance over characters.
    package static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let left = Array(lhs)
        let right = Array(rhs)
        guard !left.isEmpty else { return right.count }
        guard !right.isEmpty else { return left.count }
        var previous = Array(0...right.count)
        var current = Array(repeating: 0, count: right.count + 1)
        for i in 1...left.count {
            current[0] = i
            for j in 1...right.count {
                let substitution = previous[j - 1] + (left[i - 1] == right[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[right.count]
    }
}
