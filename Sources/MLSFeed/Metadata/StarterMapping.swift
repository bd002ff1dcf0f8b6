/// A starter mapping made from metadata: every field whose standard name matches a column placed with a type,
/// lookups as enum `values:`, the listing agent embedded, and every other field listed as going to `extra`.
///
/// Pure: built from a `MetadataDocument`, rendered by `yaml` (see `StarterMapping+YAML.swift`).
package struct StarterMapping: Sendable {
    /// One placed field.
    struct Field: Sendable {
        /// The canonical column (`list_price`).
        var column: String
        /// The keys (or `ListAgent/...` paths) read, in order.
        var sources: [String]
        var type: FieldType
        var required = false
        var minimum: Double?
        var maximum: Double?
        /// Enum words → stored words, sorted.
        var values: [(word: String, canonical: String)] = []
        /// Stored words that are not RESO values of a column that holds RESO values.
        var notRESO: [String] = []
        /// Words left out because they fold to another word with another meaning.
        var leftOut: [String] = []
        /// The RESO lookup name, for the comment about `notRESO`.
        var resoName: String?
    }

    /// One embedded agent.
    struct Agent: Sendable {
        /// The listing column filled with the agent's id (an expanded navigation property), if any.
        var link: String?
        var fields: [Field]
    }

    /// A field not placed: it goes to `extra`.
    struct Unplaced: Sendable {
        var name: String
        var type: String
    }

    package let entity: Entity
    let document: MetadataDocument
    let table: MetadataTable
    /// The placed fields, in column order (the key first).
    private(set) var fields: [Field] = []
    /// The listing agent from the listing's own fields (`embedded_agent:`).
    private(set) var flatAgent: Agent?
    /// Agents from navigation properties (`embedded_agents:`).
    private(set) var agents: [Agent] = []
    /// Fields (then navigation properties) no column takes, in the metadata's order.
    private(set) var unplaced: [Unplaced] = []
    /// Columns no field of the metadata fills.
    private(set) var missing: [String] = []
    /// RETS multi-value lookup fields (comma-joined in COMPACT replies).
    private(set) var multiValue: [String] = []
    /// Lookups of placed fields that the metadata does not hold (`ListingStatus (LIST_15)`).
    private(set) var missingLookups: [String] = []

    /// How many fields are placed (the embedded agents' included) and how many go to `extra`.
    package var counts: (placed: Int, extra: Int) {
        (fields.count + (flatAgent?.fields.count ?? 0) + agents.reduce(0) { $0 + $1.fields.count }, unplaced.count)
    }

    /// The entity a resource's records become: `Member` (RETS `Agent`, `ActiveAgent`) agents, anything else
    /// listings.
    package static func entity(forResource resource: String) -> Entity {
        ["member", "agent", "activeagent"].contains(resource.lowercased()) ? .agent : .listing
    }

    /// Plans the mapping of `resource` (and RETS `className`) in `document`.
    package init(document: MetadataDocument, resource: String, className: String? = nil) throws {
        self.document = document
        table = try document.table(resource: resource, className: className)
        entity = Self.entity(forResource: resource)
        var matcher = FieldMatcher(fields: table.fields)
        for rule in ColumnRule.rules(for: entity) {
            guard let found = matcher.claim(rule) else {
                missing.append(rule.column)
                continue
            }
            fields.append(field(rule, found))
            if let key = found[0].lookup, document.lookups[key] == nil {
                missingLookups.append("\(found[0].lookupName ?? key) (\(found[0].name))")
            }
        }
        guard fields.first?.column == entity.keyColumn else {
            let names = ColumnRule.rules(for: entity)[0].names.joined(separator: " or ")
            throw MetadataError("\(document.file): \(table.resource) has no field with the standard name \(names): "
                                + "a mapping needs the key column \(entity.keyColumn)")
        }
        var usedNavigations = Set<String>()
        if entity == .listing {
            for (navigation, link) in [("ListAgent", "list_agent_mls_id"), ("CoListAgent", "co_list_agent_mls_id")] {
                if let agent = navigationAgent(navigation, link: link) {
                    agents.append(agent)
                    usedNavigations.insert(navigation)
                }
            }
            if !usedNavigations.contains("ListAgent") {
                flatAgent = flatListAgent(&matcher)
            }
        }
        for (index, field) in table.fields.enumerated() where !matcher.claimed.contains(index) {
            unplaced.append(Unplaced(name: field.name, type: describe(field)))
        }
        for navigation in table.navigations where !usedNavigations.contains(navigation.name) {
            unplaced.append(Unplaced(name: navigation.name, type: navigation.typeLabel))
        }
        if document.format.isRETS {
            multiValue = table.fields.filter { $0.isMultiValued && $0.lookup != nil }.map(\.name)
        }
    }

    // MARK: - Planning

    /// The placed field for `rule` from the fields found.
    private func field(_ rule: ColumnRule, _ found: [MetadataField], pathPrefix: String = "") -> Field {
        var result = Field(column: rule.column, sources: found.map { pathPrefix + $0.name }, type: rule.type,
                           required: rule.required, minimum: rule.minimum, maximum: rule.maximum)
        let lookup = found.first?.lookup.flatMap { document.lookups[$0] }
        guard let entries = lookup?.entries ?? (rule.reso?.entries), !entries.isEmpty else {
            if rule.type == .enum { result.type = .text }
            return result
        }
        result.type = .enum
        result.resoName = rule.reso?.name
        var byKey: [String: (word: String, canonical: String)] = [:]
        var pairs: [(word: String, canonical: String)] = []
        var notRESO: [String] = []
        for entry in entries {
            var canonical = entry.canonical
            if let reso = rule.reso {
                if let member = entry.words.lazy.compactMap(reso.member(for:)).first {
                    canonical = member
                } else if !notRESO.contains(canonical) {
                    notRESO.append(canonical)
                }
            }
            for word in entry.words {
                let key = FieldMapping.enumKey(word)
                if let seen = byKey[key] {
                    if seen.canonical != canonical {
                        result.leftOut.append("\(quoted(word)) (\(canonical)): the same word as \(quoted(seen.word)) "
                                              + "(\(seen.canonical))")
                        continue
                    }
                    if pairs.contains(where: { $0.word == word }) { continue }
                } else {
                    byKey[key] = (word, canonical)
                }
                pairs.append((word, canonical))
            }
        }
        result.values = pairs.sorted { ($0.canonical, $0.word) < ($1.canonical, $1.word) }
        result.notRESO = notRESO
        return result
    }

    /// The agent of an expanded navigation property (`ListAgent`), its fields read as `ListAgent/MemberMlsId`.
    private func navigationAgent(_ name: String, link: String) -> Agent? {
        guard let navigation = table.navigations.first(where: { $0.name == name && !$0.isCollection }) else {
            return nil
        }
        let targetName = navigation.target.split(separator: ".").last.map(String.init) ?? navigation.target
        let target = document.tables.first { $0.qualifiedNames.contains(navigation.target) }
            ?? document.tables.first { $0.resource == targetName }
        var fields: [Field] = []
        if let target {
            var matcher = FieldMatcher(fields: target.fields)
            for rule in ColumnRule.agent {
                guard let found = matcher.claim(rule) else { continue }
                var agentRule = rule
                agentRule.required = false
                fields.append(field(agentRule, found, pathPrefix: name + "/"))
            }
        } else {
            for rule in ColumnRule.agent {
                let sources = (rule.readsAll ? rule.names : [rule.names[0]]).map { "\(name)/\($0)" }
                fields.append(Field(column: rule.column, sources: sources, type: rule.type))
            }
        }
        guard fields.first?.column == "agent_mls_id" else { return nil }
        return Agent(link: link, fields: fields)
    }

    /// The listing agent from the listing's own `ListAgent...` fields, when it has an id and something besides.
    private func flatListAgent(_ matcher: inout FieldMatcher) -> Agent? {
        var probe = matcher
        var found: [(ColumnRule, [MetadataField])] = []
        for rule in ColumnRule.listAgent {
            if let fields = probe.claim(rule, reusing: true) { found.append((rule, fields)) }
        }
        guard found.first?.0.column == "agent_mls_id",
              found.contains(where: { ColumnRule.agentOnlyColumns.contains($0.0.column) }) else { return nil }
        matcher = probe
        return Agent(link: nil, fields: found.map { field($0.0, $0.1) })
    }

    /// A field's type for the comment listing what goes to `extra`.
    private func describe(_ field: MetadataField) -> String {
        guard document.format.isRETS else { return field.typeLabel }
        var text = field.typeLabel
        if let lookupName = field.lookupName {
            text += field.isMultiValued ? ", multi-value lookup \(lookupName)" : ", lookup \(lookupName)"
        }
        if let standardName = field.standardName { text += " [\(standardName)]" }
        if let displayName = field.displayName { text += " \(quoted(displayName))" }
        return text
    }
}
