/// A parsed YAML node with its position.
public struct YAMLNode: Sendable {
    /// What the node holds.
    public enum Kind: Sendable {
        case scalar(String)
        case sequence([YAMLNode])
        case mapping([Entry])
    }

    /// One key/value pair of a mapping, in source order.
    public struct Entry: Sendable {
        public let key: String
        public let keyMark: Mark
        public let value: YAMLNode

        public init(key: String, keyMark: Mark, value: YAMLNode) {
            self.key = key
            self.keyMark = keyMark
            self.value = value
        }
    }

    public let kind: Kind
    public let mark: Mark
    /// A plain (unquoted, untagged) scalar. A scalar produced by `${VAR}` substitution is not plain: its value is
    /// taken literally.
    public let isPlainScalar: Bool

    public init(kind: Kind, mark: Mark, isPlainScalar: Bool = false) {
        self.kind = kind
        self.mark = mark
        if case .scalar = kind {
            self.isPlainScalar = isPlainScalar
        } else {
            self.isPlainScalar = false
        }
    }

    /// A plain scalar spelled `~`, `null`, `Null`, `NULL` or nothing at all.
    public var isNull: Bool {
        guard isPlainScalar, case .scalar(let text) = kind else { return false }
        return text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL"
    }

    /// The same node reported at another position (an alias reports where it is used).
    func moved(to mark: Mark) -> YAMLNode {
        YAMLNode(kind: kind, mark: mark, isPlainScalar: isPlainScalar)
    }
}
