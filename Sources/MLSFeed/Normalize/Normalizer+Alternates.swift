extension Normalizer {
    /// Whether `value` is one a field takes: not empty once cleaned (a field passes over empty ones).
    static func holdsValue(_ value: String) -> Bool {
        !value.isEmpty && !TextCleaner.clean(value).text.isEmpty
    }

    /// The position among `positions` a field takes its value from: the first that holds one.
    static func chosen(_ positions: [Int], in fields: [RawField]) -> Int? {
        positions.first { holdsValue(fields[$0].value) }
    }

    /// The positions of non-empty values some reader passed over for an earlier source and no reader took (an
    /// unchosen `from:` alternate, the repeat of a key), in position order: nothing lost, they go to `extra`.
    ///
    /// `readers` are the positions each field reads (and `embeddedReaders` each embedded row's fields'); `takenBy`
    /// gives, for a candidate, the positions of each reader of its key.
    static func unchosen(_ readers: [[Int]], embeddedReaders: [[[Int]]] = [], in fields: [RawField],
                         takenBy: (Int) -> [[Int]]) -> [Int] {
        var candidates: [Int] = []
        func passedOver(_ positions: [Int]) {
            guard positions.count > 1, let taken = chosen(positions, in: fields),
                  let index = positions.firstIndex(of: taken) else { return }
            for position in positions[(index + 1)...]
            where !fields[position].value.isEmpty && !candidates.contains(position) {
                candidates.append(position)
            }
        }
        for positions in readers { passedOver(positions) }
        for entry in embeddedReaders {
            for positions in entry { passedOver(positions) }
        }
        guard !candidates.isEmpty else { return [] }
        return candidates.filter { candidate in
            // Paths around the record (`../name()`) are not the record's content.
            !fields[candidate].key.hasPrefix("..")
                && !takenBy(candidate).contains { chosen($0, in: fields) == candidate }
        }.sorted()
    }

    /// The record-level unchosen positions of `raw` under `layout` (fields and embedded rows read from the record).
    func unchosenPositions(_ raw: RawRecord, _ layout: KeyLayout) -> [Int] {
        Self.unchosen(layout.fieldPositions, embeddedReaders: layout.embeddedPositions, in: raw.fields) { candidate in
            (keyIndex.readers[raw.fields[candidate].key] ?? []).map { reader in
                switch reader {
                case .field(let field): layout.fieldPositions[field]
                case .embedded(let slot, let field): layout.embeddedPositions[slot][field]
                }
            }
        }
    }

    /// `extra` with the fields at `positions` of `raw` added: to its JSON object (structured records), else merged
    /// into `extra` in the record's order (`layout.extraPositions` made it).
    static func addUnchosen(_ positions: [Int], of raw: inout RawRecord, layout: KeyLayout,
                            extra: inout [RawField]) {
        if let json = raw.extraJSON {
            raw.extraJSON = JSONText.adding(positions.map { raw.fields[$0] }, to: json)
            return
        }
        let merged = (layout.extraPositions.filter { !raw.fields[$0].value.isEmpty } + positions).sorted()
        extra = merged.map { raw.fields[$0] }
    }
}
