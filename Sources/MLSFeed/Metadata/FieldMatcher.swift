/// Finds the fields a column rule names, each field placed once.
struct FieldMatcher: Sendable {
    let fields: [MetadataField]
    /// Indices of fields placed so far.
    private(set) var claimed = Set<Int>()
    private let standardKeys: [String?]
    private let nameKeys: [String]
    private let displayKeys: [String?]

    init(fields: [MetadataField]) {
        self.fields = fields
        standardKeys = fields.map { $0.standardName.map(FieldMapping.enumKey) }
        nameKeys = fields.map { FieldMapping.enumKey($0.name) }
        displayKeys = fields.map { $0.displayName.map(FieldMapping.enumKey) }
    }

    /// The fields for `rule` (the first name found, or every name found for `readsAll`), claimed; nil when none.
    /// Multi-valued fields are never placed (a column holds one value). With `reusing`, fields placed before may
    /// be read again (the listing agent's id is also a listing column).
    mutating func claim(_ rule: ColumnRule, reusing: Bool = false) -> [MetadataField]? {
        var found: [Int] = []
        for name in rule.names {
            guard let index = find(name, reusing: reusing), !found.contains(index) else { continue }
            found.append(index)
            if !rule.readsAll { break }
        }
        guard !found.isEmpty else { return nil }
        claimed.formUnion(found)
        return found.map { fields[$0] }
    }

    /// The field named exactly `name` (an EDMX key property), claimed, placed before or not; nil when none is.
    mutating func claim(named name: String) -> MetadataField? {
        guard let index = fields.firstIndex(where: { $0.name == name }) else { return nil }
        claimed.insert(index)
        return fields[index]
    }

    /// A field whose standard name is `name`; else, among fields without a standard name, one whose own name
    /// is `name`, else one whose display name is (all ignoring case, spaces and underscores).
    private func find(_ name: String, reusing: Bool) -> Int? {
        let key = FieldMapping.enumKey(name)
        let open = fields.indices.filter { (reusing || !claimed.contains($0)) && !fields[$0].isMultiValued }
        if let index = open.first(where: { standardKeys[$0] == key }) { return index }
        let unnamed = open.filter { standardKeys[$0] == nil }
        return unnamed.first { nameKeys[$0] == key } ?? unnamed.first { displayKeys[$0] == key }
    }
}
