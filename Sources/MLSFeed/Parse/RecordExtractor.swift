/// Turns one structured record (a tree of a `RecordForest`) into a raw record by the mapping's paths: a field per
/// path that matched (keyed by the path as written, the first match's value), one child per repeated element an
/// embedded entry (or `rooms:`, `unit_types:`) reads, and the rest of the record as `extra` JSON keeping its shape.
struct RecordExtractor: Sendable {
    let plan: PathPlan

    /// How often each record-level path matched, for the warnings of a run (`PathStatistics`).
    struct Counts: Sendable {
        /// Records in which the path matched at least once.
        var matched: [Int]
        /// Records in which it matched more than once (the first match was taken).
        var repeated: [Int]

        init(paths: Int) {
            matched = Array(repeating: 0, count: paths)
            repeated = Array(repeating: 0, count: paths)
        }

        mutating func add(_ other: Counts) {
            for i in matched.indices {
                matched[i] += other.matched[i]
                repeated[i] += other.repeated[i]
            }
        }
    }

    /// A path's matches: element nodes, attributes (indexes into `forest.attributes`), an element's name
    /// (`name()`), or a value read from an element around the record (its name or an attribute).
    private enum Match {
        case node(Int32)
        case attribute(Int32)
        case name(Int32)
        case outside(String)
    }

    /// Where a path read from an element starts: the element's ancestors inside the record (`chain`, the record
    /// first) and the elements around the record (`ancestors`, outermost first), for its `..` steps.
    private struct Above {
        var chain: [Int32] = []
        var ancestors: [RecordAncestor]
    }

    /// The record rooted at `root`, at `position` with `ordinal`, inside `ancestors` (the elements around it that
    /// the reader kept, outermost first); adds to `counts`.
    func extract(_ forest: RecordForest, root: Int32, position: SourcePosition, ordinal: Int,
                 ancestors: [RecordAncestor] = [], counts: inout Counts) -> RawRecord {
        var json = ForestJSON(forest: forest, root: root, alwaysArrays: plan.alwaysArrays)
        var children: [RawChild] = []
        var matchedGroups: UInt64 = 0
        // Repeated elements first: the ones an entry takes are left out of the record's own paths and extra.
        for group in plan.groups {
            func take(_ element: Int32, chain: [Int32]) {
                matchedGroups |= RawChild.bit(of: group.index)
                // An empty list (`"Media": []`, `null`) says the record has none: no child, but the path is there.
                let kind = forest.nodes[Int(element)].kind
                if group.conditions.isEmpty && (kind == .emptyArray || kind == .null || kind == .emptyObject) {
                    json.skip(element)
                    return
                }
                guard admits(group, element, forest) else { return }
                var childJSON = ForestJSON(forest: forest, root: element, alwaysArrays: plan.alwaysArrays)
                let fields = read(group.paths, group.firstSteps, in: forest, from: element,
                                  above: Above(chain: chain, ancestors: ancestors), json: &childJSON, counts: nil)
                children.append(RawChild(mapping: group.index, fields: fields, extraJSON: childJSON.object()))
                json.skip(element)
            }
            if group.firstSteps.upward.isEmpty {
                for case .node(let element) in matches(group.each, in: forest, from: root) { take(element, chain: []) }
            } else {
                for (element, chain) in chained(group.each, in: forest, from: root) { take(element, chain: chain) }
            }
        }
        let fields = read(plan.paths, plan.firstSteps, in: forest, from: root, above: Above(ancestors: ancestors),
                          json: &json, counts: &counts)
        var record = RawRecord(fields: fields, position: position, ordinal: ordinal, extraJSON: json.object(),
                               children: children)
        record.matchedGroups = matchedGroups
        record.tree = RecordTreeReference(forest: forest, root: root)
        return record
    }

    /// What one path found so far in `read`.
    private struct Found {
        var first: Match?
        var repeated = false
        /// An element matched every step (else a plain name may read the element's attribute).
        var reached = false
    }

    /// The fields `paths` read from `element` (first matches), marking what they read as consumed in `json`.
    /// One pass over the element's children serves every path (`firstSteps` says which paths a child may start).
    private func read(_ paths: [PathPlan.Path], _ firstSteps: PathPlan.FirstSteps, in forest: RecordForest,
                      from element: Int32, above: Above, json: inout ForestJSON,
                      counts: UnsafeCounts?) -> [RawField] {
        withUnsafeTemporaryAllocation(of: Found.self, capacity: paths.count) { found in
            found.initialize(repeating: Found())
            defer { found.deinitialize() }
            /// Offers path `index` the matches below `child` (which its first step may match) until it has two.
            func offer(_ index: Int32, _ child: Int32, _ node: RecordForest.Node) {
                let path = paths[Int(index)]
                guard !found[Int(index)].repeated, matches(path.steps[0], node, child, forest) else { return }
                _ = visit(path, step: 1, node: child, forest: forest, reached: &found[Int(index)].reached) { match in
                    if found[Int(index)].first == nil {
                        found[Int(index)].first = match
                        return true
                    }
                    found[Int(index)].repeated = true
                    return false
                }
            }
            for index in firstSteps.noSteps {
                let path = paths[Int(index)]
                _ = visit(path, step: 0, node: element, forest: forest, reached: &found[Int(index)].reached) { match in
                    found[Int(index)].first = match
                    return false
                }
            }
            for index in firstSteps.upward {
                let path = paths[Int(index)]
                let chain = above.chain
                if path.up <= chain.count {
                    // Up to an element of the record, and down its steps from there.
                    _ = visit(path, step: 0, node: chain[chain.count - path.up], forest: forest,
                              reached: &found[Int(index)].reached) { match in
                        if found[Int(index)].first == nil {
                            found[Int(index)].first = match
                            return true
                        }
                        found[Int(index)].repeated = true
                        return false
                    }
                    continue
                }
                // Around the record: the name or an attribute of an element the reader kept.
                let outside = above.ancestors.count - (path.up - chain.count)
                guard outside >= 0, path.steps.isEmpty else { continue }
                let ancestor = above.ancestors[outside]
                if path.readsName {
                    found[Int(index)].first = .outside(forest.names[Int(ancestor.name)])
                } else if let name = path.attribute,
                          let attribute = ancestor.attributes.first(where: { $0.name == name }) {
                    found[Int(index)].first = .outside(attribute.value)
                }
            }
            var child = forest.nodes[Int(element)].firstChild
            while child >= 0 {
                let node = forest.nodes[Int(child)]
                for entry in firstSteps.paths(named: node.name) { offer(firstSteps.entries[entry], child, node) }
                for index in firstSteps.anyName { offer(index, child, node) }
                child = node.nextSibling
            }
            var fields: [RawField] = []
            fields.reserveCapacity(paths.count)
            for (index, path) in paths.enumerated() {
                var first = found[index].first
                if first == nil, !found[index].reached, let fallback = path.fallbackAttribute,
                   let attribute = forest.attribute(fallback, of: element) {
                    // A plain name also reads the element's attribute of that name (flat records: `<location lat="">`).
                    first = .attribute(attribute)
                }
                guard let first else { continue }
                if let counts {
                    counts.pointer.pointee.matched[index] += 1
                    if found[index].repeated { counts.pointer.pointee.repeated[index] += 1 }
                }
                switch first {
                case .node(let node):
                    fields.append(RawField(path.text, forest.value(of: node)))
                    // A path from above may reach outside the element's tree: what it reads stays where it is.
                    guard path.up == 0 else { continue }
                    // The path read the element's text: a bare leaf goes whole, else its attributes and children stay.
                    let read = forest.nodes[Int(node)]
                    if read.firstChild < 0 && read.attributeCount == 0 && node != element {
                        json.skip(node)
                    } else {
                        json.skipText(of: node)
                    }
                case .attribute(let attribute):
                    fields.append(RawField(path.text, forest.attributeValue(forest.attributes[Int(attribute)])))
                    if path.up == 0 { json.skip(attribute: attribute) }
                case .name(let node):
                    fields.append(RawField(path.text, forest.names[Int(forest.nodes[Int(node)].name)]))
                case .outside(let value):
                    fields.append(RawField(path.text, value))
                }
            }
            return fields
        }
    }

    private func read(_ paths: [PathPlan.Path], _ firstSteps: PathPlan.FirstSteps, in forest: RecordForest,
                      from element: Int32, above: Above, json: inout ForestJSON,
                      counts: inout Counts) -> [RawField] {
        withUnsafeMutablePointer(to: &counts) { pointer in
            read(paths, firstSteps, in: forest, from: element, above: above, json: &json,
                 counts: UnsafeCounts(pointer: pointer))
        }
    }

    /// The elements `each` matches from `root`, in document order, with their ancestors inside the record, the
    /// record first (for the entry's paths that start with `..`).
    private func chained(_ each: PathPlan.Path, in forest: RecordForest,
                         from root: Int32) -> [(element: Int32, chain: [Int32])] {
        var found: [(element: Int32, chain: [Int32])] = []
        var chain: [Int32] = []
        func walk(_ node: Int32, step: Int) {
            guard step < each.steps.count else {
                found.append((node, chain))
                return
            }
            chain.append(node)
            defer { chain.removeLast() }
            var child = forest.nodes[Int(node)].firstChild
            while child >= 0 {
                let current = forest.nodes[Int(child)]
                if matches(each.steps[step], current, child, forest) { walk(child, step: step + 1) }
                child = current.nextSibling
            }
        }
        walk(root, step: 0)
        return found
    }

    /// A way to count through a nested call without `inout` on an optional.
    private struct UnsafeCounts {
        let pointer: UnsafeMutablePointer<Counts>
    }

    /// Whether a repeated element meets its entry's `where` conditions (trimmed text, ignoring case).
    private func admits(_ group: PathPlan.Group, _ element: Int32, _ forest: RecordForest) -> Bool {
        group.conditions.allSatisfy { condition in
            guard let first = firstMatch(condition.path, in: forest, from: element).first else { return false }
            // The bytes of a leaf or an attribute, when both they and the value are ASCII: no `String` made.
            func admitsASCII(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int32, _ end: Int32) -> Bool? {
                condition.admitsASCII(UnsafeBufferPointer(rebasing: bytes[Int(start)..<Int(end)]))
            }
            let ascii: Bool?
            switch first {
            case .node(let node):
                let read = forest.nodes[Int(node)]
                ascii = read.firstChild >= 0 ? nil : admitsASCII(forest.text, read.textStart, read.textEnd)
            case .attribute(let attribute):
                let value = forest.attributes[Int(attribute)]
                ascii = admitsASCII(forest.attributeBytes, value.valueStart, value.valueEnd)
            case .name, .outside:
                ascii = nil
            }
            if let ascii { return ascii }
            let text: String
            switch first {
            case .node(let node): text = forest.value(of: node)
            case .attribute(let attribute): text = forest.attributeValue(forest.attributes[Int(attribute)])
            case .name(let node): text = forest.names[Int(forest.nodes[Int(node)].name)]
            case .outside(let value): text = value
            }
            let trimmed = text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }
            return trimmed.count == condition.value.count
                && String(trimmed.reversed()).lowercased() == condition.value.lowercased()
        }
    }

    /// Every match of `path` from `element`, in document order.
    private func matches(_ path: PathPlan.Path, in forest: RecordForest, from element: Int32) -> [Match] {
        var found: [Match] = []
        visitMatches(of: path, in: forest, from: element) { match in
            found.append(match)
            return true
        }
        return found
    }

    /// The first match of `path` from `element`, and whether there is another.
    private func firstMatch(_ path: PathPlan.Path, in forest: RecordForest,
                            from element: Int32) -> (first: Match?, repeated: Bool) {
        var first: Match?
        var repeated = false
        visitMatches(of: path, in: forest, from: element) { match in
            if first == nil {
                first = match
                return true
            }
            repeated = true
            return false
        }
        return (first, repeated)
    }

    /// Calls `body` with the matches of `path` from `element` in document order while it returns true.
    private func visitMatches(of path: PathPlan.Path, in forest: RecordForest, from element: Int32,
                              _ body: (Match) -> Bool) {
        var reached = false
        _ = visit(path, step: 0, node: element, forest: forest, reached: &reached, body)
        // A plain name also reads the element's attribute of that name (flat records: `<location lat="">`).
        if !reached, let fallback = path.fallbackAttribute, let attribute = forest.attribute(fallback, of: element) {
            _ = body(.attribute(attribute))
        }
    }

    /// Walks `path` from its step `step` at `node` depth first (document order); false once `body` said stop.
    /// `reached` tells whether any element matched every step.
    private func visit(_ path: PathPlan.Path, step: Int, node: Int32, forest: RecordForest, reached: inout Bool,
                       _ body: (Match) -> Bool) -> Bool {
        guard step < path.steps.count else {
            reached = true
            if path.readsName { return body(.name(node)) }
            guard let name = path.attribute else { return body(.node(node)) }
            guard let attribute = forest.attribute(name, of: node) else { return true }
            return body(.attribute(attribute))
        }
        let want = path.steps[step]
        var child = forest.nodes[Int(node)].firstChild
        while child >= 0 {
            let current = forest.nodes[Int(child)]
            if matches(want, current, child, forest) {
                guard visit(path, step: step + 1, node: child, forest: forest, reached: &reached, body) else {
                    return false
                }
            }
            child = current.nextSibling
        }
        return true
    }

    private func matches(_ step: PathPlan.Step, _ node: RecordForest.Node, _ index: Int32,
                         _ forest: RecordForest) -> Bool {
        guard step.name < 0 || node.name == step.name else { return false }
        if let namespace = step.namespace, node.namespace != namespace { return false }
        if let predicate = step.predicate {
            guard let attribute = forest.attribute(predicate.attribute, of: index) else { return false }
            let value = forest.attributes[Int(attribute)]
            return forest.attributeBytes[Int(value.valueStart)..<Int(value.valueEnd)].elementsEqual(predicate.value)
        }
        return true
    }
}
