extension ConfigNode {
    /// The items of a sequence; a scalar is not promoted (`expected a list`).
    public func array() throws -> [ConfigNode] {
        guard case .sequence(let items) = node.kind else {
            throw error("expected a list")
        }
        return items.enumerated().map { element($0.offset, $0.element) }
    }

    /// A sequence of scalars as strings; a single scalar is accepted as a one-element list, a null as no list.
    public func stringList() throws -> [String] {
        if node.isNull {
            return []
        }
        switch node.kind {
        case .scalar(let text):
            return [text]
        case .sequence:
            return try array().map { try $0.string() }
        case .mapping:
            throw error("expected a list")
        }
    }
}
