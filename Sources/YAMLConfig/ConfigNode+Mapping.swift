extension ConfigNode {
    /// Fails on the first key not in `allowed`, at the key's position, suggesting a near miss:
    /// `unknown key "lod"; did you mean "load"?`, else `unknown key "x"; expected one of: a, b, c`.
    /// Also fails with `expected a mapping` when the node is not a mapping.
    public func keys(allowed: [String]) throws {
        let entries = try mappingEntries()
        for entry in entries where !allowed.contains(entry.key) {
            var message = "unknown key \(entry.key.quotedForMessage)"
            if let suggestion = Suggestion.closest(to: entry.key, among: allowed) {
                message += "; did you mean \(suggestion.quotedForMessage)?"
            } else if !allowed.isEmpty {
                message += "; expected one of: \(allowed.joined(separator: ", "))"
            }
            throw ConfigError(message, file: file, mark: entry.keyMark, path: childPath(entry.key))
        }
    }

    /// The value of `key`; nil when this is not a mapping, or the key is absent or null.
    public subscript(key: String) -> ConfigNode? {
        guard case .mapping(let entries) = node.kind,
              let entry = entries.first(where: { $0.key == key }),
              !entry.value.isNull
        else { return nil }
        return child(key, entry.value)
    }

    /// The value of `key`; `missing required key "key"` at this mapping when absent or null.
    public func required(_ key: String) throws -> ConfigNode {
        _ = try mappingEntries()
        guard let value = self[key] else {
            throw error("missing required key \(key.quotedForMessage)")
        }
        return value
    }

    /// The mapping's entries in source order (null values included); `expected a mapping` otherwise.
    public func entries() throws -> [(key: String, value: ConfigNode)] {
        try mappingEntries().map { (key: $0.key, value: child($0.key, $0.value)) }
    }

    private func mappingEntries() throws(ConfigError) -> [YAMLNode.Entry] {
        guard case .mapping(let entries) = node.kind else {
            throw error("expected a mapping")
        }
        return entries
    }
}
