/// A starter mapping made from metadata: every field whose standard name matches a column placed with a type,
/// lookups as enum `values:`, the listing's agents, offices, media, open houses, rooms and unit types embedded, and
/// every other field listed as going to `extra`.
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

    /// One embedded entry: an agent or office the listing names, or its media or open houses (`each:` their
    /// navigation property).
    struct Embedded: Sendable {
        var entity: Entity
        /// The repeated element (a collection navigation property), for media and open houses.
        var each: String?
        /// The listing column filled with the row's key, if any.
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
    /// The embedded entries, agents first: the listing agent and the co-listing agent, each from an expanded
    /// navigation property (`ListAgent/MemberMlsId`) and the listing's own fields (`ListAgentMlsId`), the navigation
    /// first; the offices the same way (`ListOffice`); then the media and open houses of collection navigation
    /// properties (`each: Media`).
    private(set) var embedded: [Embedded] = []
    /// The collection navigation properties of the listing's rooms and unit types (`rooms:`, `unit_types:`).
    private(set) var rooms: String?
    private(set) var unitTypes: String?
    /// Fields (then navigation properties) no column takes, in the metadata's order.
    private(set) var unplaced: [Unplaced] = []
    /// Columns no field of the metadata fills.
    private(set) var missing: [String] = []
    /// Fields whose records hold lists (an EDMX `Collection(...)` or flags enum, a RETS multi-value lookup): the
    /// mapping's `multi_value`.
    private(set) var multiValue: [String] = []
    /// Lookups of placed fields that the metadata does not hold (`ListingStatus (LIST_15)`).
    private(set) var missingLookups: [String] = []
    /// Warnings for the one who runs `mapping init` (a key left to fill in).
    package private(set) var warnings: [String] = []

    /// How many fields are placed (the embedded entries' included) and how many go to `extra`.
    package var counts: (placed: Int, extra: Int) {
        (fields.count + embedded.reduce(0) { $0 + $1.fields.count }, unplaced.count)
    }

    /// Whether the key column reads the placeholder `TODO`: no field of the metadata could be told to be the key.
    var keyIsPlaceholder: Bool { fields.first?.sources == [FieldMapping.placeholder] }

    /// The entity a resource's records become: `Member` (RETS `Agent`, `ActiveAgent`) agents, `Office` offices,
    /// `OpenHouse` open houses, `Media` (RETS `Media`) media, anything else listings.
    package static func entity(forResource resource: String) -> Entity {
        switch resource.lowercased() {
        case "member", "agent", "activeagent": return .agent
        case "office": return .office
        case "openhouse": return .openHouse
        case "media": return .media
        default: return .listing
        }
    }

    /// The collection navigation properties of a listing's own rows: media, open houses (the Data Dictionary's
    /// `OpenHouse`; some servers say `OpenHouses`), rooms and unit types.
    static let collectionNavigations: [String: Entity] = ["Media": .media, "OpenHouse": .openHouse,
                                                          "OpenHouses": .openHouse]

    /// Plans the mapping of `resource` (and RETS `className`) in `document`.
    package init(document: MetadataDocument, resource: String, className: String? = nil) throws {
        self.document = document
        table = try document.table(resource: resource, className: className)
        entity = Self.entity(forResource: resource)
        var matcher = FieldMatcher(fields: table.fields)
        let rules = ColumnRule.rules(for: entity)
        fields.append(keyField(rules[0], &matcher))
        for rule in rules.dropFirst() {
            let found = rule.column == "listing_key" ? recordKey(&matcher) : matcher.claim(rule)
            guard let found else {
                missing.append(rule.column)
                continue
            }
            var placed = field(rule, found)
            if let office = officeNavigation[rule.column] { placed.sources += office }
            fields.append(placed)
            if let key = found[0].lookup, document.lookups[key] == nil {
                missingLookups.append("\(found[0].lookupName ?? key) (\(found[0].name))")
            }
        }
        var usedNavigations = Set<String>()
        if entity == .listing {
            for role in ColumnRule.agentRoles {
                guard let agent = agent(role, &matcher) else { continue }
                embedded.append(agent)
                usedNavigations.insert(role.navigation)
            }
            for role in ColumnRule.officeRoles {
                guard let office = office(role, &matcher) else { continue }
                embedded.append(office)
                usedNavigations.insert(role.navigation)
            }
            for navigation in table.navigations where navigation.isCollection {
                if let kind = Self.collectionNavigations[navigation.name] {
                    embedded.append(collection(navigation, kind))
                } else if navigation.name == "Rooms" {
                    rooms = navigation.name
                } else if navigation.name == "UnitTypes" {
                    unitTypes = navigation.name
                } else {
                    continue
                }
                usedNavigations.insert(navigation.name)
            }
        }
        for (index, field) in table.fields.enumerated() where !matcher.claimed.contains(index) {
            unplaced.append(Unplaced(name: field.name, type: describe(field)))
        }
        for navigation in table.navigations where !usedNavigations.contains(navigation.name) {
            unplaced.append(Unplaced(name: navigation.name, type: navigation.typeLabel))
        }
        multiValue = table.fields.filter { $0.isMultiValued && (document.format == .edmx || $0.lookup != nil) }
            .map(\.name)
    }

    // MARK: - Keys

    /// The key column: the first field one of its standard names finds (`ListingId`), backed up by the record key
    /// the metadata declares (an EDMX `<Key>`, else a `ListingKey` field): RESO payloads often carry only the key.
    /// Without either, `TODO`, and a warning.
    private mutating func keyField(_ rule: ColumnRule, _ matcher: inout FieldMatcher) -> Field {
        var found = matcher.claim(rule) ?? []
        if let key = declaredKey(&matcher), !found.contains(where: { $0.name == key.name }) { found.append(key) }
        guard !found.isEmpty else {
            let names = rule.names.prefix(3).joined(separator: ", ")
            warnings.append("\(Self.baseName(document.file)): \(tableName) has no field mapping init takes for the "
                            + "key \(rule.column) (\(names), ... or a declared key): \(rule.column) reads from "
                            + "\(FieldMapping.placeholder); name the feed's key there before using the mapping")
            return Field(column: rule.column, sources: [FieldMapping.placeholder], type: rule.type, required: true)
        }
        return field(rule, found)
    }

    /// The record key: the EDMX entity's `<Key>` property, else a field with the standard name `ListingKey`
    /// (listings only); claimed, a field already placed included.
    private func declaredKey(_ matcher: inout FieldMatcher) -> MetadataField? {
        if let name = table.keyFields.first, let field = matcher.claim(named: name) { return field }
        guard entity == .listing else { return nil }
        return matcher.claim(ColumnRule("listing_key", ["ListingKey"], .text), reusing: true)?.first
    }

    /// `listing_key`'s field: a `ListingKey` field, else the declared key when the MLS number is not it.
    private func recordKey(_ matcher: inout FieldMatcher) -> [MetadataField]? {
        if let found = matcher.claim(ColumnRule("listing_key", ["ListingKey"], .text), reusing: true) { return found }
        guard let name = table.keyFields.first, fields.first?.sources.first != name,
              let field = matcher.claim(named: name) else { return nil }
        return [field]
    }

    /// The table as the warnings name it: `Property`, or `Property:RES` for a RETS class.
    private var tableName: String {
        table.className.map { "\(table.resource):\($0)" } ?? table.resource
    }

    /// The listing office columns' sources from an expanded `ListOffice` (`ListOffice/OfficeMlsId`), read after the
    /// listing's own fields.
    private var officeNavigation: [String: [String]] {
        guard entity == .listing, let navigation = table.navigations.first(where: {
            $0.name == "ListOffice" && !$0.isCollection
        }) else { return [:] }
        let target = targetTable(navigation)
        func source(_ names: [String]) -> [String] {
            guard let target else { return ["ListOffice/" + names[0]] }
            var matcher = FieldMatcher(fields: target.fields)
            return matcher.claim(ColumnRule("", names, .text))?.map { "ListOffice/" + $0.name } ?? []
        }
        return ["list_office_mls_id": source(["OfficeMlsId"]), "list_office_name": source(["OfficeName"])]
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

    /// The entity type a navigation property leads to, if the document holds it.
    private func targetTable(_ navigation: MetadataTable.Navigation) -> MetadataTable? {
        let targetName = navigation.target.split(separator: ".").last.map(String.init) ?? navigation.target
        return document.tables.first { $0.qualifiedNames.contains(navigation.target) }
            ?? document.tables.first { $0.resource == targetName }
    }

    /// The agent of `role` (the listing agent, the co-listing agent): from an expanded navigation property
    /// (`ListAgent/MemberMlsId`, its fields by the target's metadata, or the RESO Member names when the document
    /// lacks it) and the listing's own fields (`ListAgentMlsId`, `ListAgentFullName`), each column reading the
    /// navigation first. Nil without an id, and, from the listing's own fields alone, without a field only an agent
    /// has (a name, a phone, an e-mail).
    private func agent(_ role: ColumnRule.AgentRole, _ matcher: inout FieldMatcher) -> Embedded? {
        var sources: [String: [String]] = [:]
        var templates: [String: Field] = [:]
        if let navigation = table.navigations.first(where: { $0.name == role.navigation && !$0.isCollection }) {
            if let target = targetTable(navigation) {
                var targetMatcher = FieldMatcher(fields: target.fields)
                for rule in ColumnRule.agent {
                    guard let found = targetMatcher.claim(rule) else { continue }
                    var agentRule = rule
                    agentRule.required = false
                    let made = field(agentRule, found, pathPrefix: role.navigation + "/")
                    templates[rule.column] = made
                    sources[rule.column] = made.sources
                }
            } else {
                for rule in ColumnRule.agent {
                    sources[rule.column] = (rule.readsAll ? rule.names : [rule.names[0]])
                        .map { "\(role.navigation)/\($0)" }
                    templates[rule.column] = Field(column: rule.column, sources: [], type: rule.type)
                }
            }
        }
        let fromNavigation = sources["agent_mls_id"] != nil
        var probe = matcher
        var flat: [String: Field] = [:]
        for rule in role.rules {
            guard let found = probe.claim(rule, reusing: true) else { continue }
            flat[rule.column] = field(rule, found)
        }
        let flatAgent = flat["agent_mls_id"] != nil && flat.keys.contains { ColumnRule.agentOnlyColumns.contains($0) }
        guard fromNavigation || flatAgent else { return nil }
        if flatAgent { matcher = probe }
        var fields: [Field] = []
        for rule in ColumnRule.agent {
            let flatField = flatAgent ? flat[rule.column] : nil
            guard var made = templates[rule.column] ?? flatField else { continue }
            made.sources = (sources[rule.column] ?? []) + (flatField?.sources ?? [])
            guard !made.sources.isEmpty else { continue }
            fields.append(made)
        }
        guard fields.first?.column == "agent_mls_id" else { return nil }
        return Embedded(entity: .agent, link: role.link, fields: fields)
    }

    /// The office of `role` (the listing office, the co-listing office, the buyer's offices), as `agent` makes an
    /// agent: from an expanded navigation property (`ListOffice/OfficeMlsId`) and the listing's own fields
    /// (`ListOfficeMlsId`, `ListOfficePhone`), each column reading the navigation first. Nil without an id, and,
    /// from the listing's own fields alone, without a field only an office has (its key, a phone, an e-mail); with
    /// an expanded office, the listing's own office fields back up its columns.
    private func office(_ role: ColumnRule.OfficeRole, _ matcher: inout FieldMatcher) -> Embedded? {
        var fields: [Field] = []
        var navigationFields: [String: Field] = [:]
        if let navigation = table.navigations.first(where: { $0.name == role.navigation && !$0.isCollection }) {
            for made in rowFields(navigation, ColumnRule.office) { navigationFields[made.column] = made }
        }
        var probe = matcher
        var flat: [String: Field] = [:]
        for rule in role.rules {
            guard let found = probe.claim(rule, reusing: true) else { continue }
            flat[rule.column] = field(rule, found)
        }
        let flatOffice = flat["office_mls_id"] != nil
            && flat.keys.contains { ColumnRule.officeOnlyColumns.contains($0) }
        // With an expanded office, the listing's own office fields back it up (the same office).
        let useFlat = flatOffice || navigationFields["office_mls_id"] != nil
        guard useFlat else { return nil }
        matcher = probe
        for rule in ColumnRule.office {
            let flatField = flat[rule.column]
            guard var made = navigationFields[rule.column] ?? flatField else { continue }
            made.sources = (navigationFields[rule.column]?.sources ?? []) + (flatField?.sources ?? [])
            fields.append(made)
        }
        guard fields.first?.column == "office_mls_id" else { return nil }
        return Embedded(entity: .office, link: role.link, fields: fields)
    }

    /// The media or open houses of a collection navigation property (`each: Media`): the target entity's fields
    /// its standard names find (the RESO names when the document lacks the entity), without `listing_id` (the
    /// listing's own).
    private func collection(_ navigation: MetadataTable.Navigation, _ kind: Entity) -> Embedded {
        let rules = ColumnRule.rules(for: kind).filter { $0.column != "listing_id" }
        let fields = rowFields(navigation, rules, prefix: "")
        return Embedded(entity: kind, each: navigation.name, fields: fields)
    }

    /// The fields `rules` place of a navigation property's target entity, read through it (`prefix`, by default
    /// `<navigation>/`), none of them required; when the document lacks the entity, each rule's first name.
    private func rowFields(_ navigation: MetadataTable.Navigation, _ rules: [ColumnRule],
                           prefix: String? = nil) -> [Field] {
        let pathPrefix = prefix ?? navigation.name + "/"
        guard let target = targetTable(navigation) else {
            return rules.map { rule in
                var made = Field(column: rule.column, sources: [pathPrefix + rule.names[0]], type: rule.type,
                                 minimum: rule.minimum, maximum: rule.maximum)
                if made.type == .enum { made.type = .text }
                return made
            }
        }
        var targetMatcher = FieldMatcher(fields: target.fields)
        return rules.compactMap { rule in
            guard let found = targetMatcher.claim(rule) else { return nil }
            var optional = rule
            optional.required = false
            return field(optional, found, pathPrefix: pathPrefix)
        }
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
