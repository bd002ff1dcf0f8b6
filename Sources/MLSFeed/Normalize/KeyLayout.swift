/// Where each mapped field's source keys sit in a record's field list, computed once per key sequence.
///
/// Header-once feeds give every record the same keys in the same order, so the positions are reused until a
/// record's keys differ (checked cheaply: equal short keys compare by their inline bits).
struct KeyLayout {
    private(set) var keys: [String] = []
    /// For each mapping field, the positions of its source keys: source order first, then position order.
    private(set) var fieldPositions: [[Int]] = []
    /// The same for embedded-agent fields.
    private(set) var agentPositions: [[Int]] = []
    /// Positions of fields no mapping field reads (the `extra` candidates).
    private(set) var extraPositions: [Int] = []

    /// Makes sure the layout describes `fields`, rebuilding it when the keys differ from the last record's.
    mutating func adopt(_ fields: [RawField], mapping: Mapping, placed: Set<String>) {
        if fields.count == keys.count && zip(fields, keys).allSatisfy({ $0.key == $1 }) { return }
        keys = fields.map(\.key)
        var byKey: [String: [Int]] = [:]
        for (i, key) in keys.enumerated() { byKey[key, default: []].append(i) }
        func positions(_ field: FieldMapping) -> [Int] { field.sources.flatMap { byKey[$0] ?? [] } }
        fieldPositions = mapping.fields.map(positions)
        agentPositions = mapping.embeddedAgent.map(positions)
        extraPositions = keys.indices.filter { !placed.contains(keys[$0]) }
    }
}
