import YAMLConfig

extension Mapping {
    /// Reads a mapping (inline in a pipeline, or a whole file under `pipelines/mappings/`).
    ///
    /// ```yaml
    /// entity: listing
    /// fields:
    ///   list_price: { from: [list_price, lp], type: money, required: true }
    /// embedded_agent:
    ///   agent_mls_id: { from: la_id, type: text }
    /// ```
    public init(config node: ConfigNode) throws {
        try node.keys(allowed: ["entity", "fields", "embedded_agent"])
        let entity = try node["entity"]?.oneOf(Entity.allCases.map { ($0.rawValue, $0) }) ?? .listing
        guard let fieldsNode = node["fields"] else { throw node.error("missing required key \"fields\"") }
        let fields = try Mapping.fields(fieldsNode, entity: entity)
        guard fields.contains(where: { $0.name == entity.keyColumn }) else {
            throw fieldsNode.error("the mapping must place the key column \"\(entity.keyColumn)\"")
        }
        var agent: [FieldMapping] = []
        if let agentNode = node["embedded_agent"] {
            guard entity == .listing else { throw agentNode.error("only a listing mapping can embed an agent") }
            agent = try Mapping.fields(agentNode, entity: .agent)
        }
        self.init(entity: entity, fields: fields, embeddedAgent: agent)
    }

    private static func fields(_ node: ConfigNode, entity: Entity) throws -> [FieldMapping] {
        let columns = Dictionary(uniqueKeysWithValues: entity.columns.map { ($0.name, $0) })
        return try node.entries().map { name, fieldNode in
            guard columns[name] != nil else {
                let names = entity.columns.map(\.name)
                let hint = Suggestion.closest(to: name, in: names).map { "; did you mean \"\($0)\"?" } ?? ""
                throw fieldNode.error("\"\(name)\" is not a column of \(entity.rawValue)s\(hint)")
            }
            return try FieldMapping(name: name, config: fieldNode)
        }
    }
}

extension FieldMapping {
    /// Reads one field: `{ from, type, required, default, on_error, values, min, max }`.
    init(name: String, config node: ConfigNode) throws {
        try node.keys(allowed: ["from", "type", "required", "default", "on_error", "values", "min", "max"])
        let sources = try node.required("from").stringList()
        guard !sources.isEmpty else { throw node.error("\"from\" names no source key") }
        let type = try node.required("type").oneOf(FieldType.allCases.map { ($0.rawValue, $0) })
        let required = try node["required"]?.bool() ?? false
        let onError = try node["on_error"]?.oneOf(OnError.allCases.map { ($0.rawValue, $0) })
        var table: [String: String] = [:]
        if let values = node["values"] {
            guard type == .enum else { throw values.error("\"values\" only applies to type enum") }
            for (word, canonical) in try values.entries() { table[word.lowercased()] = try canonical.string() }
        } else if type == .enum {
            throw node.error("missing required key \"values\" for type enum")
        }
        self.init(name: name, sources: sources, type: type, required: required, onError: onError, enumValues: table,
                  minimum: try node["min"]?.double(), maximum: try node["max"]?.double())
        if let defaultNode = node["default"] {
            let raw = try defaultNode.string()
            do {
                // Naive default timestamps are UTC: a default has no source time zone to borrow.
                self.defaultValue = try coerce(raw, zone: .gmt)
            } catch let failure as CoercionFailure {
                throw defaultNode.error("default \(quoted(raw)) is \(failure.rule)")
            }
        }
        if self.onError == .default && defaultValue == nil {
            throw node.error("on_error: default needs a \"default\"")
        }
    }
}
