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
    /// Reads one field: `{ from, type, required, default, on_error, values, min, max, date_order, country }`.
    init(name: String, config node: ConfigNode) throws {
        try node.keys(allowed: ["from", "type", "required", "default", "on_error", "values", "min", "max",
                                "date_order", "country"])
        let sources = try node.required("from").stringList()
        guard !sources.isEmpty else { throw node.error("\"from\" names no source key") }
        let type = try node.required("type").oneOf(FieldType.allCases.map { ($0.rawValue, $0) })
        let required = try node["required"]?.bool() ?? false
        let onError = try node["on_error"]?.oneOf(OnError.allCases.map { ($0.rawValue, $0) })
        var table: [String: String] = [:]
        if let values = node["values"] {
            guard type == .enum else { throw values.error("\"values\" only applies to type enum") }
            var spelled: [String: String] = [:]
            for (word, canonical) in try values.entries() {
                let key = FieldMapping.enumKey(word)
                let value = try canonical.string()
                if let other = spelled[key], table[key] != value {
                    throw canonical.error("\(quoted(word)) and \(quoted(other)) are the same word (case, spaces and "
                                          + "underscores are ignored) but map to different values")
                }
                (table[key], spelled[key]) = (value, word)
            }
        } else if type == .enum {
            throw node.error("missing required key \"values\" for type enum")
        }
        self.init(name: name, sources: sources, type: type, required: required, onError: onError, enumValues: table,
                  minimum: try node["min"]?.double(), maximum: try node["max"]?.double())
        if let orderNode = node["date_order"] {
            guard type == .date || type == .timestamp else {
                throw orderNode.error("\"date_order\" only applies to types date and timestamp")
            }
            dateOrder = try orderNode.oneOf(DateOrder.allCases.map { ($0.rawValue, $0) })
        }
        if let countryNode = node["country"] {
            guard type == .postalCode else { throw countryNode.error("\"country\" only applies to type postal_code") }
            country = try countryNode.oneOf([("US", .us), ("CA", .ca), ("any", .any)])
        }
        if let defaultNode = node["default"] {
            let raw = try defaultNode.string()
            var issue: String?
            do {
                // Naive default timestamps are UTC: a default has no source time zone to borrow.
                self.defaultValue = try coerce(raw, zone: .gmt, issue: &issue)
            } catch let failure as CoercionFailure {
                throw defaultNode.error("default \(quoted(raw)) is \(failure.rule)")
            }
            // The only value kept with an issue is a date written with a time: a default says the date alone.
            if issue != nil { throw defaultNode.error("default \(quoted(raw)) has a time of day; give the date alone") }
        }
        if self.onError == .default && defaultValue == nil {
            throw node.error("on_error: default needs a \"default\"")
        }
    }
}
