/// Which of a mapping's fields read each source key, made once per mapping: a record's key layout is then one
/// dictionary lookup per key.
///
/// Nested records (RESO JSON, syndication) carry the paths that matched, which differ from record to record, so
/// their layouts are rarely reused: built from a dictionary of the record's own keys, a layout took about 130,000
/// instructions for a RESO JSON listing, a fifth of a `--force` reload's.
struct KeyIndex: Sendable {
    /// A mapping field, or a field of an embedded row read from the record's own keys, that reads a key.
    enum Reader: Sendable, Hashable {
        /// `mapping.fields[field]`.
        case field(Int)
        /// The `field`th field of `mapping.recordEntries[slot]`.
        case embedded(slot: Int, field: Int)
    }

    /// Placed keys (read by some field, or otherwise not an `extra` candidate) → the fields that read them.
    let readers: [String: [Reader]]
    /// `mapping.fields.count`, and each record entry's field count.
    let fieldCount: Int
    let embeddedFieldCounts: [Int]
    /// The fields (and embedded fields) with more than one source, with their sources (each once): their positions go
    /// in source order first, then key order.
    let multiSource: [(reader: Reader, sources: [String])]

    init(mapping: Mapping, placed: Set<String>) {
        var readers: [String: [Reader]] = [:]
        for key in placed { readers[key] = [] }
        var multiSource: [(reader: Reader, sources: [String])] = []
        func add(_ field: FieldMapping, as reader: Reader) {
            for source in field.sources where readers[source, default: []].last != reader {
                readers[source, default: []].append(reader)
            }
            var sources: [String] = []
            for source in field.sources where !sources.contains(source) { sources.append(source) }
            if sources.count > 1 { multiSource.append((reader, sources)) }
        }
        for (index, field) in mapping.fields.enumerated() { add(field, as: .field(index)) }
        let entries = mapping.recordEntries
        for (slot, entry) in entries.enumerated() {
            for (index, field) in entry.entry.fields.enumerated() {
                add(field, as: .embedded(slot: slot, field: index))
            }
        }
        self.readers = readers
        self.fieldCount = mapping.fields.count
        self.embeddedFieldCounts = entries.map(\.entry.fields.count)
        self.multiSource = multiSource
    }
}
