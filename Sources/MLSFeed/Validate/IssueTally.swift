/// Counts of bad or missing optional values per field and rule, with the first raw example of each; unknown enum
/// values are counted per value as well (`add(field:rule:example:byValue:)`).
package struct IssueTally: Sendable, Hashable {
    package struct Issue: Sendable, Hashable, Comparable {
        package var field: String
        package var rule: String
        /// The value an issue counted per value is about (nil: all values of the rule together).
        package var value: String?

        package static func < (lhs: Issue, rhs: Issue) -> Bool {
            (lhs.field, lhs.rule, lhs.value ?? "") < (rhs.field, rhs.rule, rhs.value ?? "")
        }
    }

    /// The most values of one field and rule counted one by one; the rest are counted together as
    /// `<rule>, other values`, so a field whose every record holds another word keeps the tally small.
    package static let valuesPerRule = 50

    package private(set) var counts: [Issue: Int] = [:]
    package private(set) var examples: [Issue: String] = [:]
    /// How many values are counted one by one, per field and rule (keys without a value).
    private var distinctValues: [Issue: Int] = [:]

    package init() {}

    /// Counts one issue; `byValue`: one count per distinct `example` (an unknown enum value), up to
    /// `valuesPerRule` values of the field and rule.
    package mutating func add(field: String, rule: String, example: String?, byValue: Bool = false) {
        add(Issue(field: field, rule: rule, value: byValue ? shortened(example ?? "") : nil), count: 1,
            example: example.map(shortened))
    }

    /// Adds `other`'s counts, in the order of its lines (so which values are counted one by one does not depend
    /// on a dictionary's order).
    package mutating func merge(_ other: IssueTally) {
        for issue in other.counts.keys.sorted() {
            add(issue, count: other.counts[issue]!, example: other.examples[issue])
        }
    }

    private mutating func add(_ issue: Issue, count: Int, example: String?) {
        var issue = issue
        if issue.value != nil && counts[issue] == nil {
            let group = Issue(field: issue.field, rule: issue.rule)
            if distinctValues[group, default: 0] < Self.valuesPerRule {
                distinctValues[group, default: 0] += 1
            } else {
                issue = Issue(field: issue.field, rule: issue.rule + ", other values")
            }
        }
        counts[issue, default: 0] += count
        if examples[issue] == nil, let example { examples[issue] = example }
    }

    package var isEmpty: Bool { counts.isEmpty }

    /// Summary lines, sorted: `list_price: 37 not a price ("call agent")`; per value: `property_type: 3 unknown
    /// value ("Cabin")`, `property_type: 1 unknown value ("Yurt")`.
    package var lines: [String] {
        counts.keys.sorted().map { issue in
            let example = examples[issue].map { " (\(quoted($0)))" } ?? ""
            return "\(issue.field): \(counts[issue]!) \(issue.rule)\(example)"
        }
    }
}
