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
    ///
    /// `paths`: the feed has structure (nested XML), so every `from` is a path, checked here, whose prefixes must
    /// be among `paths`' prefixes; nil for flat feeds, whose `from` are plain keys.
    package init(config node: ConfigNode, paths: PathRules? = nil) throws {
        try node.keys(allowed: ["entity", "fields", "embedded_agent", "embedded_agents", "embedded_offices",
                                "embedded_media", "embedded_open_houses", "rooms", "unit_types", "multi_value"])
        let entity = try node["entity"]?.oneOf(Entity.allCases.map { ($0.rawValue, $0) }) ?? .listing
        guard let fieldsNode = node["fields"] else { throw node.error("missing required key \"fields\"") }
        let fields = try Mapping.fields(fieldsNode, entity: entity, paths: paths)
        guard fields.contains(where: { $0.name == entity.keyColumn }) else {
            throw fieldsNode.error("the mapping must place the key column \"\(entity.keyColumn)\"")
        }
        if entity.belongsToListing, !fields.contains(where: { $0.name == "listing_id" }) {
            throw fieldsNode.error("the mapping must place \"listing_id\": every \(entity.rawValue) row belongs to "
                                   + "a listing")
        }
        var embedded: [EmbeddedMapping] = []
        if let agentNode = node["embedded_agent"] {
            guard entity == .listing else { throw agentNode.error("only a listing mapping can embed an agent") }
            embedded.append(EmbeddedMapping(fields: try Mapping.fields(agentNode, entity: .agent, paths: paths)))
        }
        for kind in [Entity.agent, .office, .media, .openHouse] {
            guard let list = node[kind.embeddedKey] else { continue }
            guard entity == .listing else { throw list.error("only a listing mapping can embed \(kind.plural)") }
            embedded += try list.array().map { try EmbeddedMapping(kind, config: $0, paths: paths) }
        }
        var repeated: [String: String] = [:]
        for key in ["rooms", "unit_types"] {
            guard let pathNode = node[key] else { continue }
            guard entity == .listing else { throw pathNode.error("only a listing mapping has \(key)") }
            // A flat format's records have no repeated elements: the path reads nothing there.
            repeated[key] = try EmbeddedMapping.eachPath(pathNode, key: key, paths: paths).text
        }
        self.init(entity: entity, fields: fields, embedded: embedded, rooms: repeated["rooms"],
                  unitTypes: repeated["unit_types"], multiValue: try node["multi_value"]?.stringList() ?? [])
    }

    /// The fields under `node`; `depth`: how many elements below the record their paths are read from (an
    /// `embedded_agents` entry's `each`), for the check of paths that leave the record.
    static func fields(_ node: ConfigNode, entity: Entity, paths: PathRules?, depth: Int = 0) throws
        -> [FieldMapping] {
        let columns = Dictionary(uniqueKeysWithValues: entity.columns.map { ($0.name, $0) })
        return try node.entries().map { name, fieldNode in
            guard columns[name] != nil else {
                let names = entity.columns.map(\.name)
                let hint = Suggestion.closest(to: name, among: names).map { "; did you mean \"\($0)\"?" } ?? ""
                throw fieldNode.error("\"\(name)\" is not a column of \(entity.table)\(hint)")
            }
            if let index = entity.columnIndex[name], entity.columns[index].type == .jsonb {
                throw fieldNode.error("\"\(name)\" is filled by the mapping's \(name): path (the repeated elements "
                                      + "whose objects it holds), not by a field")
            }
            let field = try FieldMapping(name: name, config: fieldNode)
            if let paths, let from = fieldNode["from"] {
                for source in field.sources { try paths.check(source, at: from, depth: depth) }
            }
            return field
        }
    }
}

/// How `from` paths of a structured feed are checked: their syntax, and that every prefix is declared.
package struct PathRules: Sendable {
    /// The prefixes `format.namespaces` declares.
    package var prefixes: Set<String>

    package init(prefixes: Set<String>) {
        self.prefixes = prefixes
    }

    /// Throws at `node` when `text` is not a path, uses an undeclared prefix, or leaves the record (read from
    /// `depth` elements below it) for more than the name or an attribute of an element around it.
    @discardableResult
    func check(_ text: String, at node: ConfigNode, depth: Int = 0) throws -> RecordPath {
        let path: RecordPath
        do {
            path = try RecordPath(parsing: text)
        } catch {
            throw node.error("\(quoted(text)) is not a path: \(error.message)")
        }
        for prefix in path.prefixes where !prefixes.contains(prefix) {
            throw node.error("the path \(quoted(text)) uses the prefix \(quoted(prefix)), which format.namespaces "
                             + "does not declare")
        }
        if path.leavesRecord(depth: depth) && (!path.steps.isEmpty || (path.attribute == nil && !path.readsName)) {
            throw node.error("the path \(quoted(text)) leaves the record: of the elements around a record only "
                             + "name() and attributes are read (\"../name()\", \"../@id\")")
        }
        return path
    }
}

extension EmbeddedMapping {
    /// Reads one entry of `entity`'s embedded list: `{ each, where, link, fields }`.
    init(_ entity: Entity, config node: ConfigNode, paths: PathRules?) throws {
        try node.keys(allowed: ["each", "where", "link", "fields"])
        guard let fieldsNode = node["fields"] else { throw node.error("missing required key \"fields\"") }
        var each: String?
        var depth = 0
        if let eachNode = node["each"] {
            // A flat format's records have no repeated elements: such an entry reads nothing there (a mapping
            // shared by a RESO Web API and a RETS pipeline keeps it).
            let path = try EmbeddedMapping.eachPath(eachNode, paths: paths)
            each = path.text
            depth = path.steps
        }
        var conditions: [Condition] = []
        if let whereNode = node["where"] {
            guard each != nil else { throw whereNode.error("\"where\" only applies with \"each\"") }
            for (path, value) in try whereNode.entries() {
                if let parsed = try? RecordPath(parsing: path), parsed.up > 0 {
                    throw value.error("a \"where\" path reads inside the repeated element (no \"..\")")
                }
                try paths?.check(path, at: value)
                conditions.append(Condition(path: path, value: try value.string()))
            }
        }
        var link: String?
        if let linkNode = node["link"] {
            guard !entity.belongsToListing else {
                throw linkNode.error("\"link\" fills a listing column with an agent's or office's id; \(entity.plural) "
                                     + "belong to their listing")
            }
            let column = try linkNode.string()
            guard let index = Column.listingIndex[column], Column.listing[index].type == .text, index > 0 else {
                let names = Column.listing.dropFirst().filter { $0.type == .text }.map(\.name)
                let hint = Suggestion.closest(to: column, among: names).map { "; did you mean \"\($0)\"?" } ?? ""
                throw linkNode.error("\"\(column)\" is not a text column of listings\(hint)")
            }
            link = column
        }
        if entity.belongsToListing, let listingNode = fieldsNode["listing_id"] {
            throw listingNode.error("\"listing_id\" of an embedded \(entity.rawValue) row is its listing's: "
                                    + "leave it out")
        }
        self.init(entity, each: each, conditions: conditions, link: link,
                  fields: try Mapping.fields(fieldsNode, entity: entity, paths: paths, depth: depth))
    }

    /// The path of repeated elements at `node` (`each:`, `rooms:`): elements inside the record, checked; its text
    /// and how many steps below the record it reads.
    static func eachPath(_ node: ConfigNode, key: String = "each", paths: PathRules?) throws
        -> (text: String, steps: Int) {
        let text = try node.nonBlankString()
        if let path = try? RecordPath(parsing: text),
           path.up > 0 || path.readsName || path.attribute != nil || path.steps.isEmpty {
            throw node.error("\"\(key)\" names elements inside the record, like "
                             + (key == "each" ? "ListingParticipants/Participant" : "Rooms"))
        }
        guard let paths else { return (text, 0) }
        return (text, try paths.check(text, at: node).steps.count)
    }
}

extension FieldMapping {
    /// Reads one field: `{ from, type, required, default, on_error, values, min, max, date_order, country }`.
    init(name: String, config node: ConfigNode) throws {
        try node.keys(allowed: ["from", "type", "required", "default", "on_error", "on_unknown", "values", "min",
                                "max", "date_order", "country"])
        let fromNode = try node.required("from")
        let sources = try fromNode.stringList()
        guard !sources.isEmpty else { throw node.error("\"from\" names no source key") }
        if sources.contains(FieldMapping.placeholder) {
            throw fromNode.error("\"\(FieldMapping.placeholder)\" marks a source left to fill in: name the feed's key "
                                 + "(or path) for \(name)")
        }
        let type = try node.required("type").oneOf(FieldType.allCases.map { ($0.rawValue, $0) })
        let required = try node["required"]?.bool() ?? false
        let onError = try node["on_error"]?.oneOf(OnError.allCases.map { ($0.rawValue, $0) })
        let onUnknown = try node["on_unknown"]?.oneOf(OnUnknown.allCases.map { ($0.rawValue, $0) })
        if let unknownNode = node["on_unknown"], type != .enum {
            throw unknownNode.error("\"on_unknown\" only applies to type enum")
        }
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
        self.init(name: name, sources: sources, type: type, required: required, onError: onError,
                  onUnknown: onUnknown, enumValues: table, minimum: try node["min"]?.double(),
                  maximum: try node["max"]?.double())
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
