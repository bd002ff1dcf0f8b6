/// Turns one structured record (a tree of a `RecordForest`) into a raw record by the mapping's paths: a field per
/// path that matched (keyed by the path as written, the first match's value), one child per repeated element an
/// `embedded_agents` entry reads, and the rest of the record as `extra` JSON keeping its shape.
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

    /// A path's matches: element nodes, or attributes (indexes into `forest.attributes`).
    private enum Match {
        case node(Int32)
        case attribute(Int32)
    }

    /// The record rooted at `root`, at `position` with `ordinal`; adds to `counts`.
    func extract(_ forest: RecordForest, root: Int32, position: SourcePosition, ordinal: Int,
                 counts: inout Counts) -> RawRecord {
        var json = ForestJSON(forest: forest, alwaysArrays: plan.alwaysArrays)
        var children: [RawChild] = []
        // Repeated elements first: the ones an entry takes are left out of the record's own paths and extra.
        for group in plan.groups {
            for case .node(let element) in matches(group.each, in: forest, from: root)
            where admits(group, element, forest) {
                var childJSON = ForestJSON(forest: forest, alwaysArrays: plan.alwaysArrays)
                let fields = read(group.paths, in: forest, from: element, json: &childJSON, counts: nil)
                children.append(RawChild(mapping: group.index, fields: fields, extraJSON: childJSON.object(element)))
                json.skippedNodes.insert(element)
            }
        }
        let fields = read(plan.paths, in: forest, from: root, json: &json, counts: &counts)
        var record = RawRecord(fields: fields, position: position, ordinal: ordinal, extraJSON: json.object(root),
                               children: children)
        record.tree = RecordTreeReference(forest: forest, root: root)
        return record
    }

    /// The fields `paths` read from `element` (first matches), marking what they read as consumed in `json`.
    private func read(_ paths: [PathPlan.Path], in forest: RecordForest, from element: Int32, json: inout ForestJSON,
                      counts: UnsafeCounts?) -> [RawField] {
        var fields: [RawField] = []
        fields.reserveCapacity(paths.count)
        for (index, path) in paths.enumerated() {
            let found = matches(path, in: forest, from: element)
            guard let first = found.first else { continue }
            if let counts {
                counts.pointer.pointee.matched[index] += 1
                if found.count > 1 { counts.pointer.pointee.repeated[index] += 1 }
            }
            switch first {
            case .node(let node):
                fields.append(RawField(path.text, forest.value(of: node)))
                // The path read the element's text: a bare leaf goes whole, else its attributes and children stay.
                let read = forest.nodes[Int(node)]
                if read.firstChild < 0 && read.attributeCount == 0 && node != element {
                    json.skippedNodes.insert(node)
                } else {
                    json.skippedText.insert(node)
                }
            case .attribute(let attribute):
                fields.append(RawField(path.text, forest.attributeValue(forest.attributes[Int(attribute)])))
                json.skippedAttributes.insert(attribute)
            }
        }
        return fields
    }

    private func read(_ paths: [PathPlan.Path], in forest: RecordForest, from element: Int32, json: inout ForestJSON,
                      counts: inout Counts) -> [RawField] {
        withUnsafeMutablePointer(to: &counts) { pointer in
            read(paths, in: forest, from: element, json: &json, counts: UnsafeCounts(pointer: pointer))
        }
    }

    /// A way to count through a nested call without `inout` on an optional.
    private struct UnsafeCounts {
        let pointer: UnsafeMutablePointer<Counts>
    }

    /// Whether a repeated element meets its entry's `where` conditions (trimmed text, ignoring case).
    private func admits(_ group: PathPlan.Group, _ element: Int32, _ forest: RecordForest) -> Bool {
        group.conditions.allSatisfy { condition in
            guard let first = matches(condition.path, in: forest, from: element).first else { return false }
            let text: String
            switch first {
            case .node(let node): text = forest.value(of: node)
            case .attribute(let attribute): text = forest.attributeValue(forest.attributes[Int(attribute)])
            }
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
                .caseInsensitiveCompare(condition.value) == .orderedSame
        }
    }

    /// Every match of `path` from `element`, in document order.
    private func matches(_ path: PathPlan.Path, in forest: RecordForest, from element: Int32) -> [Match] {
        var current = [element]
        for step in path.steps {
            var next: [Int32] = []
            for node in current {
                for child in forest.children(of: node) where matches(step, forest.nodes[Int(child)], child, forest) {
                    next.append(child)
                }
            }
            if next.isEmpty {
                // A plain name also reads the element's attribute of that name (flat records: `<location lat="">`).
                if let fallback = path.fallbackAttribute, let attribute = forest.attribute(fallback, of: element) {
                    return [.attribute(attribute)]
                }
                return []
            }
            current = next
        }
        guard let attribute = path.attribute else { return current.map(Match.node) }
        return current.compactMap { node in forest.attribute(attribute, of: node).map(Match.attribute) }
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
