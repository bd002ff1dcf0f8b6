/// Where each mapped field's source keys sit in a record's field list, computed once per key sequence.
///
/// Header-once feeds give every record the same keys in the same order, so the positions are reused until a
/// record's keys differ (checked cheaply: equal short keys compare by their inline bits).
struct KeyLayout {
    private(set) var keys: [String] = []
    /// For each mapping field, the positions of its source keys: source order first, then position order.
    private(set) var fieldPositions: [[Int]] = []
    /// The same for the fields of each agent read from the record's own keys (`Mapping.recordAgents` order).
    private(set) var agentPositions: [[[Int]]] = []
    /// Positions of fields no mapping field reads (the `extra` candidates).
    private(set) var extraPositions: [Int] = []

    /// Whether the layout was built for some record yet (a first record without fields has the empty `keys` too).
    private var built = false

    /// Makes sure the layout describes `fields`, rebuilding it when the keys differ from the last record's.
    mutating func adopt(_ fields: [RawField], mapping: Mapping, placed: Set<String>) {
        if describes(fields) { return }
        built = true
        keys = fields.map(\.key)
        let byKey = Self.positions(of: keys)
        fieldPositions = mapping.fields.map { Self.positions($0, in: byKey) }
        agentPositions = mapping.recordAgents.map { $0.agent.fields.map { Self.positions($0, in: byKey) } }
        extraPositions = keys.indices.filter { !placed.contains(keys[$0]) }
    }

    /// Whether the layout was built for `fields`' keys, in their order.
    func describes(_ fields: [RawField]) -> Bool {
        built && fields.count == keys.count && Self.same(keys, in: fields)
    }

    /// Whether `fields` carry `keys` in order; compared in place (iterating a `zip` copies every field).
    private static func same(_ keys: [String], in fields: [RawField]) -> Bool {
        for i in fields.indices where fields[i].key != keys[i] { return false }
        return true
    }

    /// Key → its positions in `keys`.
    static func positions(of keys: [String]) -> [String: [Int]] {
        var byKey: [String: [Int]] = [:]
        for (i, key) in keys.enumerated() { byKey[key, default: []].append(i) }
        return byKey
    }

    /// The positions of `field`'s source keys, in source order.
    static func positions(_ field: FieldMapping, in byKey: [String: [Int]]) -> [Int] {
        field.sources.flatMap { byKey[$0] ?? [] }
    }
}
