/// Builds a `YAMLNode` tree from libyaml events, adding the checks libyaml lacks.
///
/// Checks: duplicate keys, non-scalar keys, unknown aliases, a bound on alias expansion (billion laughs) and on
/// nesting depth, a single document per file. Expands `${VAR}` in scalar values and `<<` merge keys.
/// Works with an explicit stack, so deep documents cannot overflow the call stack.
struct YAMLTreeBuilder {
    /// Most nodes that aliases may add to one document, counting nested expansions.
    static let maxExpandedNodes = 10_000
    /// Deepest nesting of sequences and mappings accepted.
    static let maxDepth = 100

    /// A mapping key read and waiting for its value.
    private struct PendingKey {
        let key: String
        let mark: Mark
        let isMerge: Bool
    }

    /// A mapping's content before merge keys are resolved.
    private enum Part {
        case entry(YAMLNode.Entry)
        case merge(YAMLNode)
    }

    /// A sequence or mapping still being read.
    private struct Frame {
        let isMapping: Bool
        let mark: Mark
        let anchor: String?
        let path: String
        let nodeCountAtStart: Int
        var items: [YAMLNode] = []
        var parts: [Part] = []
        var pendingKey: PendingKey?
        var keyLines: [String: Int] = [:]
    }

    private let file: String
    private let expander: EnvironmentExpander
    private var stack: [Frame] = []
    private var anchors: [String: (node: YAMLNode, size: Int)] = [:]
    private var root: YAMLNode?
    private var documentCount = 0
    /// Nodes in the tree so far, aliases counted at their expanded size.
    private var nodeCount = 0
    private var expandedNodes = 0

    init(file: String, environment: [String: String]) {
        self.file = file
        self.expander = EnvironmentExpander(environment: environment)
    }

    /// Consumes one event; returns the document's root once the stream ends.
    mutating func consume(_ event: YAMLEvent) throws(ConfigError) -> YAMLNode? {
        switch event {
        case .streamStart, .documentEnd:
            return nil
        case .streamEnd:
            guard let root, !root.isNull else { return YAMLNode(kind: .mapping([]), mark: root?.mark ?? .start) }
            return root
        case .documentStart(let mark):
            documentCount += 1
            if documentCount > 1 {
                throw ConfigError("a file may hold only one YAML document", file: file, mark: mark)
            }
        case .scalar(let value, let anchor, let isPlain, let mark):
            if isKeyPosition {
                try takeKey(value, mark: mark, isPlain: isPlain)
                if let anchor {
                    anchors[anchor] = (YAMLNode(kind: .scalar(value), mark: mark, isPlainScalar: isPlain), 1)
                }
            } else {
                try addScalar(value, anchor: anchor, isPlain: isPlain, mark: mark)
            }
        case .alias(let anchor, let mark):
            try addAlias(anchor, mark: mark)
        case .sequenceStart(let anchor, let mark):
            try push(isMapping: false, anchor: anchor, mark: mark)
        case .mappingStart(let anchor, let mark):
            try push(isMapping: true, anchor: anchor, mark: mark)
        case .sequenceEnd, .mappingEnd:
            try pop()
        }
        return nil
    }

    // MARK: - Positions

    private var isKeyPosition: Bool {
        guard let top = stack.last else { return false }
        return top.isMapping && top.pendingKey == nil
    }

    /// The key path of the node about to be added.
    private var childPath: String {
        guard let top = stack.last else { return "" }
        if top.isMapping {
            let key = top.pendingKey?.key ?? ""
            return top.path.isEmpty ? key : "\(top.path).\(key)"
        }
        return "\(top.path)[\(top.items.count)]"
    }

    private func error(_ message: String, at mark: Mark, path: String = "") -> ConfigError {
        ConfigError(message, file: file, mark: mark, path: path)
    }

    // MARK: - Events

    private mutating func takeKey(_ key: String, mark: Mark, isPlain: Bool) throws(ConfigError) {
        let index = stack.count - 1
        let parentPath = stack[index].path
        let path = parentPath.isEmpty ? key : "\(parentPath).\(key)"
        if let firstLine = stack[index].keyLines[key] {
            throw error("duplicate key \(key.quotedForMessage) (first at line \(firstLine))", at: mark, path: path)
        }
        stack[index].keyLines[key] = mark.line
        stack[index].pendingKey = PendingKey(key: key, mark: mark, isMerge: isPlain && key == "<<")
    }

    private mutating func addScalar(_ value: String, anchor: String?, isPlain: Bool, mark: Mark) throws(ConfigError) {
        var node = YAMLNode(kind: .scalar(value), mark: mark, isPlainScalar: isPlain)
        do {
            if let expanded = try expander.expand(value) {
                node = YAMLNode(kind: .scalar(expanded), mark: mark, isPlainScalar: false)
            }
        } catch {
            throw self.error(error.message, at: mark, path: childPath)
        }
        nodeCount += 1
        if let anchor {
            anchors[anchor] = (node, 1)
        }
        try add(node)
    }

    private mutating func addAlias(_ anchor: String, mark: Mark) throws(ConfigError) {
        guard let (node, size) = anchors[anchor] else {
            throw error("unknown alias \"*\(anchor)\"", at: mark, path: isKeyPosition ? "" : childPath)
        }
        if isKeyPosition {
            guard case .scalar(let key) = node.kind else {
                throw error("mapping keys must be scalars", at: mark, path: stack.last?.path ?? "")
            }
            try takeKey(key, mark: mark, isPlain: node.isPlainScalar)
            return
        }
        expandedNodes += size
        if expandedNodes > Self.maxExpandedNodes {
            let message = "too many alias expansions (more than \(Self.maxExpandedNodes) nodes)"
            throw error(message, at: mark, path: childPath)
        }
        nodeCount += size
        try add(node.moved(to: mark))
    }

    private mutating func push(isMapping: Bool, anchor: String?, mark: Mark) throws(ConfigError) {
        if isKeyPosition {
            throw error("mapping keys must be scalars", at: mark, path: stack.last?.path ?? "")
        }
        if stack.count >= Self.maxDepth {
            throw error("nesting too deep (more than \(Self.maxDepth) levels)", at: mark, path: childPath)
        }
        let path = childPath
        stack.append(Frame(isMapping: isMapping, mark: mark, anchor: anchor, path: path, nodeCountAtStart: nodeCount))
        nodeCount += 1
    }

    private mutating func pop() throws(ConfigError) {
        guard let frame = stack.popLast() else { return }
        let node: YAMLNode
        if frame.isMapping {
            node = YAMLNode(kind: .mapping(try resolveMerges(frame.parts)), mark: frame.mark)
        } else {
            node = YAMLNode(kind: .sequence(frame.items), mark: frame.mark)
        }
        if let anchor = frame.anchor {
            anchors[anchor] = (node, nodeCount - frame.nodeCountAtStart)
        }
        try add(node)
    }

    private mutating func add(_ node: YAMLNode) throws(ConfigError) {
        let index = stack.count - 1
        guard index >= 0 else {
            root = node
            return
        }
        if !stack[index].isMapping {
            stack[index].items.append(node)
            return
        }
        guard let key = stack[index].pendingKey else { return }
        stack[index].pendingKey = nil
        if key.isMerge {
            stack[index].parts.append(.merge(node))
        } else {
            stack[index].parts.append(.entry(YAMLNode.Entry(key: key.key, keyMark: key.mark, value: node)))
        }
    }

    // MARK: - Merge keys

    /// Applies `<<: *a` / `<<: [*a, *b]`: explicit keys win, then earlier merge sources over later ones.
    private func resolveMerges(_ parts: [Part]) throws(ConfigError) -> [YAMLNode.Entry] {
        var seen = Set<String>()
        for case .entry(let entry) in parts {
            seen.insert(entry.key)
        }
        var entries: [YAMLNode.Entry] = []
        for part in parts {
            switch part {
            case .entry(let entry):
                entries.append(entry)
            case .merge(let source):
                for entry in try mergeEntries(source) where !seen.contains(entry.key) {
                    seen.insert(entry.key)
                    entries.append(entry)
                }
            }
        }
        return entries
    }

    private func mergeEntries(_ source: YAMLNode) throws(ConfigError) -> [YAMLNode.Entry] {
        switch source.kind {
        case .mapping(let entries):
            return entries
        case .sequence(let items):
            var entries: [YAMLNode.Entry] = []
            for item in items {
                guard case .mapping(let more) = item.kind else {
                    throw error("a merge key \"<<\" needs a mapping or a list of mappings", at: item.mark)
                }
                entries += more
            }
            return entries
        case .scalar:
            throw error("a merge key \"<<\" needs a mapping or a list of mappings", at: source.mark)
        }
    }
}
