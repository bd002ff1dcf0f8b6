import Foundation

/// The joins in a statement's plan between relations that carry a source, and those of them that do not match on
/// it: what keeps a statement runnable where the source-scoped tables are split by source (partitions, shards).
///
/// Reads the plan of `EXPLAIN (VERBOSE, FORMAT JSON)`, where every column is qualified by its relation's alias. A
/// relation carries a source when it is a scan of a source-scoped table; a CTE or subquery reading one (a CTE
/// scan, a subquery scan: it carries those it reads, and stands for them under its own alias); or a function scan
/// whose output has a `source` column. A CTE that is one row of aggregates (no groups) is a value: it carries none.
///
/// A join (a Nested Loop, Hash Join or Merge Join; or a node and a `SubPlan` it runs: `IN`, `EXISTS` or a scalar
/// subquery left as such) with relations that carry a source on both sides matches on source when
/// - one top-level conjunct of a condition in the join's subtree (Hash, Merge or Index Cond, Join Filter, Filter,
///   Recheck Cond) is `x.source = y.source`, x of one side and y of the other (an equality under an OR does not
///   count); or
/// - every such relation of both sides is restricted by a top-level conjunct `source = $N` (or a literal) to the
///   same value: the planner drops an equality both sides already meet, as in `l.source = $1 AND a.source =
///   l.source`.
/// An `InitPlan` (an uncorrelated subquery or a CTE, computed once) is a value to its parent, not a join; its own
/// joins are checked, and a CTE scan carries what its CTE reads.
struct SourceJoins {
    /// The tables that have a `source` column.
    let scopedTables: Set<String>

    /// One plan node of the JSON plan.
    private typealias Node = [String: Any]

    /// A relation of the plan that carries a source.
    private struct Carrier {
        /// `listings l`, `CTE hits h`: what a finding names.
        let name: String
        /// The alias that qualifies its columns in the plan.
        let alias: String
        /// The parameter or literal its source is restricted to, if any.
        let pin: String?
        /// Whether a CTE or subquery scan reads it (a finding names the scan, not this).
        var read = false
    }

    /// The keys of a plan node that hold a condition.
    private static let conditionKeys = ["Hash Cond", "Merge Cond", "Join Filter", "Index Cond", "Recheck Cond",
                                        "Filter", "TID Cond"]

    /// The node types that join their outer and inner child.
    private static let joinTypes: Set<String> = ["Nested Loop", "Hash Join", "Merge Join"]

    /// What a plan's joins of relations that carry a source come to.
    struct Report {
        /// How many such joins the plan has.
        var joins = 0
        /// Those that do not match on source, one line each: `statement: agents a and listings l joined without
        /// source`, the relations of both sides by name.
        var findings: [String] = []
    }

    /// The joins of `statement`'s plan (`EXPLAIN (VERBOSE, FORMAT JSON)` output) between relations that carry a
    /// source.
    func report(onPlan json: String, of statement: String) throws -> Report {
        guard let top = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]],
              let plan = top.first?["Plan"] as? Node else {
            throw PlanError(text: "\(statement): not an EXPLAIN (FORMAT JSON) plan: \(json.prefix(200))")
        }
        var ctes: [String: Node] = [:]
        visit(plan) { node in
            if relationship(node) == "InitPlan", let name = node["Subplan Name"] as? String, name.hasPrefix("CTE ") {
                ctes[String(name.dropFirst(4))] = node
            }
        }
        let tree = Tree(check: self, ctes: ctes)
        var report = Report()
        func check(_ left: [Carrier], _ right: [Carrier], conditions: [String]) {
            guard !left.isEmpty, !right.isEmpty else { return }
            report.joins += 1
            if !Self.matchOnSource(left, right, conditions: conditions) {
                let names = (left + right).filter { !$0.read }.map(\.name).sorted()
                let listed = names.count == 2 ? names.joined(separator: " and ")
                    : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
                report.findings.append("\(statement): \(listed) joined without source")
            }
        }
        visit(plan) { node in
            if Self.joinTypes.contains(node["Node Type"] as? String ?? "") {
                check(children(node).filter { relationship($0) == "Outer" }.flatMap(tree.carriers),
                      children(node).filter { relationship($0) == "Inner" }.flatMap(tree.carriers),
                      conditions: conditions(under: node))
            }
            for subplan in children(node) where relationship(subplan) == "SubPlan" {
                check(tree.carriers(node), tree.carriers(subplan), conditions: conditions(under: node))
            }
        }
        return report
    }

    /// Whether `left` and `right` match on source: an equality of their sources, or one value that pins all.
    private static func matchOnSource(_ left: [Carrier], _ right: [Carrier], conditions: [String]) -> Bool {
        let equal = Set(conditions.flatMap(conjuncts).compactMap(sourceEquality))
        for x in left {
            for y in right where equal.contains([x.alias, y.alias]) { return true }
        }
        return commonPin(left + right) != nil
    }

    /// The value that pins every one of `carriers`, if one does.
    private static func commonPin(_ carriers: [Carrier]) -> String? {
        let pins = Set(carriers.map { $0.pin ?? "" })
        return pins.count == 1 && pins.first != "" ? pins.first : nil
    }

    /// One plan's relations that carry a source, with its CTEs by name.
    private struct Tree {
        /// The check (for its tables and conditions).
        let check: SourceJoins
        /// The plans of the statement's CTEs, by name.
        let ctes: [String: Node]

        /// The relations that carry a source in the rows a node returns: its own scan and those of its children,
        /// but not of its `InitPlan`s and `SubPlan`s; for a CTE scan, what its CTE reads.
        func carriers(_ node: Node) -> [Carrier] {
            var read = check.children(node).filter { !["InitPlan", "SubPlan"].contains(check.relationship($0)) }
                .flatMap(carriers)
            if node["Node Type"] as? String == "CTE Scan", let name = node["CTE Name"] as? String,
               let cte = ctes[name], !isOneRow(cte) {
                read += carriers(cte)
            }
            guard let scan = carrier(node, reading: read) else { return read }
            return [scan] + read.map { carrier in
                var carrier = carrier
                carrier.read = true
                return carrier
            }
        }

        /// Whether a CTE's plan is one row of aggregates (no groups): a value, not rows of a source.
        private func isOneRow(_ cte: Node) -> Bool {
            cte["Node Type"] as? String == "Aggregate" && cte["Strategy"] as? String == "Plain"
        }

        /// The node as a relation that carries a source, if it is one; `read`: what carries one under it.
        private func carrier(_ node: Node, reading read: [Carrier]) -> Carrier? {
            guard let alias = node["Alias"] as? String, node["Node Type"] as? String != "ModifyTable" else {
                return nil
            }
            let name: String
            if let relation = node["Relation Name"] as? String {
                guard check.scopedTables.contains(relation) else { return nil }
                name = relation
            } else {
                guard !read.isEmpty || (node["Output"] as? [String] ?? []).contains("\(alias).source") else {
                    return nil
                }
                if let cte = node["CTE Name"] as? String {
                    name = "CTE \(cte)"
                } else {
                    name = node["Function Name"] as? String ?? "subquery"
                }
            }
            // A bitmap heap scan's conditions are also in the bitmap index scans under it.
            let bitmaps = node["Node Type"] as? String == "Bitmap Heap Scan" ? check.children(node) : []
            let own = SourceJoins.conditionKeys.compactMap { node[$0] as? String }
                + bitmaps.flatMap(check.conditions(under:))
            let pin = own.flatMap(SourceJoins.conjuncts).lazy.compactMap { SourceJoins.sourcePin($0, alias: alias) }
                .first ?? (read.isEmpty ? nil : SourceJoins.commonPin(read))
            return Carrier(name: name == alias || name == "CTE \(alias)" ? name : "\(name) \(alias)", alias: alias,
                           pin: pin)
        }
    }

    /// Calls `body` with `node` and every node under it.
    private func visit(_ node: Node, _ body: (Node) -> Void) {
        body(node)
        for child in children(node) { visit(child, body) }
    }

    /// The children of a plan node.
    private func children(_ node: Node) -> [Node] {
        node["Plans"] as? [Node] ?? []
    }

    /// How a node hangs under its parent: `Outer`, `Inner`, `Member`, `Subquery`, `InitPlan`, `SubPlan`.
    private func relationship(_ node: Node) -> String? {
        node["Parent Relationship"] as? String
    }

    /// Every condition of a node and of the nodes under it.
    private func conditions(under node: Node) -> [String] {
        Self.conditionKeys.compactMap { node[$0] as? String } + children(node).flatMap(conditions(under:))
    }

    /// The two aliases of a conjunct `x.source = y.source`.
    static func sourceEquality(_ conjunct: String) -> Set<String>? {
        guard let match = conjunct.wholeMatch(of: #/(\w+)\.source = (\w+)\.source/#) else { return nil }
        return [String(match.1), String(match.2)]
    }

    /// The parameter or literal of a conjunct `alias.source = $N` (either way round), if it is one.
    static func sourcePin(_ conjunct: String, alias: String) -> String? {
        func isValue(_ text: Substring) -> Bool {
            text.wholeMatch(of: #/\$\d+|'(?:[^']|'')*'::text/#) != nil
        }
        if let match = conjunct.wholeMatch(of: #/(?:(\w+)\.)?source = (.+)/#),
           match.1.map({ $0 == alias }) ?? true, isValue(match.2) {
            return String(match.2)
        }
        if let match = conjunct.wholeMatch(of: #/(.+) = (?:(\w+)\.)?source/#),
           match.2.map({ $0 == alias }) ?? true, isValue(match.1) {
            return String(match.1)
        }
        return nil
    }

    /// The top-level conjuncts of a condition as EXPLAIN prints it (`((a = b) AND (c OR d))`), each without its
    /// enclosing parentheses; quoted literals and identifiers are skipped over.
    static func conjuncts(_ condition: String) -> [String] {
        var parts: [String] = []
        var depth = 0
        var quote: Character?
        var current = ""
        let text = Array(unwrapped(condition))
        var index = 0
        while index < text.count {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "(" {
                depth += 1
            } else if character == ")" {
                depth -= 1
            } else if depth == 0, String(text[index...].prefix(5)) == " AND " {
                parts.append(current)
                current = ""
                index += 5
                continue
            }
            current.append(character)
            index += 1
        }
        parts.append(current)
        return parts.map(unwrapped)
    }

    /// `text` without the parentheses that enclose all of it, however many.
    private static func unwrapped(_ text: String) -> String {
        var text = Substring(text.trimmingCharacters(in: .whitespaces))
        while text.first == "(", closing(text) == text.index(before: text.endIndex) {
            text = text.dropFirst().dropLast()
        }
        return String(text)
    }

    /// The index of the parenthesis that closes the one `text` starts with.
    private static func closing(_ text: Substring) -> Substring.Index? {
        var depth = 0
        var quote: Character?
        for index in text.indices {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "(" {
                depth += 1
            } else if character == ")" {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }

    /// A plan that could not be read.
    struct PlanError: Error, CustomStringConvertible {
        /// What was wrong.
        let text: String
        /// `text`.
        var description: String { text }
    }
}
