/// Triples records read by the parser but not yet split into fields: values texts of many records in one buffer.
///
/// Filled on the parsing thread; converted into `RawRecord`s (the costly part: one String per field) by
/// `convert`, possibly on another thread, a block of records at a time.
struct TriplesBatch: Sendable {
    /// One record's place in the batch.
    struct Entry: Sendable {
        /// Its values text in `bytes`; nil when the record had no values element.
        var values: Range<Int>?
        var position: SourcePosition
        var ordinal: Int
        /// Index of its keys in `keySets`.
        var keySet: Int
    }

    /// A keys list with the index of `mls_number` in it.
    struct KeySet: Sendable {
        var keys: [String]
        var mlsIndex: Int?
    }

    var bytes: [UInt8] = []
    var entries: [Entry] = []
    var keySets: [KeySet] = []
    var delimiter: [UInt8]
    var valuesElement: String
    var keysElement: String
    var recordElement: String

    init(settings: TriplesSettings) {
        delimiter = Array(settings.delimiter.utf8)
        valuesElement = settings.valuesElement
        keysElement = settings.keysElement
        recordElement = settings.recordElement
    }

    /// An empty batch with the same settings (and room for as much as this one held).
    func emptied() -> TriplesBatch {
        var next = self
        next.bytes = []
        next.bytes.reserveCapacity(bytes.count)
        next.entries = []
        next.entries.reserveCapacity(entries.count)
        next.keySets = []
        return next
    }

    /// The records of `entries[range]`.
    ///
    /// A values/keys count mismatch gives a `defect` record whose fields pair what they can, with surplus values
    /// under `_extra_value_1`, `_extra_value_2`, ... and no field for a key without a value.
    func convert(_ range: Range<Int>) -> [RawRecord] {
        var records: [RawRecord] = []
        records.reserveCapacity(range.count)
        // The last long value seen at each field position: feeds repeat office names, agents, timestamps, ...
        // and a repeated value then shares one String instead of allocating (and later freeing) another.
        var recent: [(range: Range<Int>, value: String)] = []
        for index in range {
            let entry = entries[index]
            guard let values = entry.values else {
                records.append(RawRecord(fields: [], position: entry.position, ordinal: entry.ordinal,
                                         defect: "\(recordElement) has no \(valuesElement) element"))
                continue
            }
            let keySet = keySets[entry.keySet]
            let keys = keySet.keys
            var fields: [RawField] = []
            fields.reserveCapacity(keys.count)
            var count = 0
            if recent.count < keys.count {
                recent += repeatElement((range: 0..<0, value: ""), count: keys.count - recent.count)
            }
            DelimitedText.forEachField(bytes, values, delimiter: delimiter) { range in
                let value: String
                if range.count <= 15 || count >= recent.count {
                    value = DelimitedText.string(bytes, range)  // small strings live inline: nothing to share
                } else if range.count == recent[count].range.count && bytes[range] == bytes[recent[count].range] {
                    value = recent[count].value
                } else {
                    value = DelimitedText.string(bytes, range)
                    recent[count] = (range, value)
                }
                if count < keys.count {
                    fields.append(RawField(keys[count], value))
                } else {
                    fields.append(RawField("_extra_value_\(count - keys.count + 1)", value))
                }
                count += 1
            }
            var defect: String?
            if count != keys.count {
                var reason = "\(valuesElement) has \(count) fields but \(keysElement) has \(keys.count)"
                if let mlsIndex = keySet.mlsIndex, mlsIndex < fields.count {
                    let number = DelimitedText.trimmed(fields[mlsIndex].value)
                    if !number.isEmpty { reason += " (MLS \(number))" }
                }
                defect = reason
            }
            records.append(RawRecord(fields: fields, position: entry.position, ordinal: entry.ordinal, defect: defect))
        }
        return records
    }
}
