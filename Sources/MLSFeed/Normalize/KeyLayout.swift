/// Where each mapped field's source keys sit in a record's field list, computed once per key sequence.
///
/// Header-once feeds give every record the same keys in the same order, so the positions are reused until a
/// record's keys differ (checked cheaply: equal short keys compare by their inline bits).
struct KeyLayout {
    private(set) var keys: [String] = []
    /// For each mapping field, the positions of its source keys: source order first, then position order.
    private(set) var fieldPositions: [[Int]] = []
    /// The same for the fields of each embedded row read from the record's own keys (`Mapping.recordEntries` order).
    private(set) var embeddedPositions: [[[Int]]] = []
    /// Positions of fields no mapping field reads (the `extra` candidates).
    private(set) var extraPositions: [Int] = []
    /// Whether some field (or embedded field) finds more than one of its sources (or a repeated key) in the record:
    /// only then can a value be passed over for another and need a place in `extra`.
    private(set) var hasAlternates = false

    /// Whether the layout was built for some record yet (a first record without fields has the empty `keys` too).
    private var built = false

    /// Makes sure the layout describes `fields`, rebuilding it when the keys differ from the last record's.
    mutating func adopt(_ fields: [RawField], index: KeyIndex) {
        if describes(fields) { return }
        built = true
        keys = fields.map(\.key)
        fieldPositions = Array(repeating: [], count: index.fieldCount)
        embeddedPositions = index.embeddedFieldCounts.map { Array(repeating: [], count: $0) }
        extraPositions = []
        // One lookup per key, in key order: each reader's positions come out in key order.
        for (position, key) in keys.enumerated() {
            guard let readers = index.readers[key] else {
                extraPositions.append(position)
                continue
            }
            for reader in readers {
                switch reader {
                case .field(let field): fieldPositions[field].append(position)
                case .embedded(let slot, let field): embeddedPositions[slot][field].append(position)
                }
            }
        }
        hasAlternates = fieldPositions.contains { $0.count > 1 } || embeddedPositions.contains { entry in
            entry.contains { $0.count > 1 }
        }
        // A field with several sources takes its positions in source order first (a source named twice is read once:
        // the same value, the same outcome).
        for (reader, sources) in index.multiSource {
            switch reader {
            case .field(let field):
                if fieldPositions[field].count > 1 {
                    fieldPositions[field] = inSourceOrder(fieldPositions[field], sources)
                }
            case .embedded(let slot, let field):
                if embeddedPositions[slot][field].count > 1 {
                    embeddedPositions[slot][field] = inSourceOrder(embeddedPositions[slot][field], sources)
                }
            }
        }
    }

    /// `positions` (of keys `sources` names, in key order) by source first, then key order.
    private func inSourceOrder(_ positions: [Int], _ sources: [String]) -> [Int] {
        var ordered: [Int] = []
        ordered.reserveCapacity(positions.count)
        for source in sources {
            for position in positions where keys[position] == source { ordered.append(position) }
        }
        return ordered
    }

    /// A fingerprint of `fields`' keys in their order (equal keys, equal fingerprints; `describes` confirms).
    static func fingerprint(of fields: [RawField]) -> UInt64 {
        var hash = ContentHash()
        for field in fields {
            hash.update(field.key)
            hash.separator()
        }
        return hash.finalize64()
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
