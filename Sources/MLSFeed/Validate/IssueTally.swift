/// Counts of bad or missing optional values per field and rule, with the first raw example of each.
package struct IssueTally: Sendable, Hashable {
    package struct Issue: Sendable, Hashable, Comparable {
        package var field: String
        package var rule: String

        package static func < (lhs: Issue, rhs: Issue) -> Bool {
            (lhs.field, lhs.rule) < (rhs.field, rhs.rule)
        }
    }

    package private(set) var counts: [Issue: Int] = [:]
    package private(set) var examples: [Issue: String] = [:]

    package init() {}

    package mutating func add(field: String, rule: String, example: String?) {
        let issue = Issue(field: field, rule: rule)
        counts[issue, default: 0] += 1
        if examples[issue] == nil, let example { examples[issue] = shortened(example) }
    }

    package mutating func merge(_ other: IssueTally) {
        for (issue, count) in other.counts { counts[issue, default: 0] += count }
        for (issue, example) in other.examples where examples[issue] == nil { examples[issue] = example }
    }

    package var isEmpty: Bool { counts.isEmpty }

    /// Summary lines, sorted: `list_price: 37 not a price ("call agent")`.
    package var lines: [String] {
        counts.keys.sorted().map { issue in
            let example = examples[issue].map { " (\(quoted($0)))" } ?? ""
            return "\(issue.field): \(counts[issue]!) \(issue.rule)\(example)"
        }
    }
}
