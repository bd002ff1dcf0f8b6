/// A cursor into a node that knows its file and key path, with typed accessors that throw exact ConfigErrors.
///
/// Paths: a mapping child is `parent.child` (a top-level key is just `child`), a sequence item `parent[3]`.
public struct ConfigNode: Sendable {
    public let node: YAMLNode
    public let file: String
    public let path: String

    public init(_ node: YAMLNode, file: String, path: String = "") {
        self.node = node
        self.file = file
        self.path = path
    }

    /// Reads the file at `path` and returns a cursor at its root.
    public static func load(path: String, environment: [String: String]) throws -> ConfigNode {
        ConfigNode(try YAMLDocument.load(path: path, environment: environment), file: path)
    }

    /// Where the node starts.
    public var mark: Mark { node.mark }

    /// A plain `~`, `null` or empty scalar.
    public var isNull: Bool { node.isNull }

    /// An error at this node, with its path.
    public func error(_ message: String) -> ConfigError {
        ConfigError(message, file: file, mark: node.mark, path: path)
    }

    /// The cursor for the value of `key` in this mapping.
    func child(_ key: String, _ value: YAMLNode) -> ConfigNode {
        ConfigNode(value, file: file, path: childPath(key))
    }

    /// The cursor for item `index` of this sequence.
    func element(_ index: Int, _ value: YAMLNode) -> ConfigNode {
        ConfigNode(value, file: file, path: "\(path)[\(index)]")
    }

    func childPath(_ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    /// How a node is named after "got" in a type error: a scalar quoted, otherwise its kind.
    var shownValue: String {
        switch node.kind {
        case .scalar(let text): text.quotedForMessage
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }
}
