/// Triples records read by the parser but not yet split into fields: values texts of many records in one buffer.
///
/// Filled on the parsing thread; converted into `RawRecord`s by `convert`, possibly on another thread, a block of
/// records at a time: fingerprinted and their values counted, their fields left in `bytes` for the normalize stage
/// to split (`fields(at:recent:)`, the costly part: one String per long value).
struct TriplesBatch: SplittableBatch {
    /// One record's place in the batch.
    struct Entry: Sendable {
        /// Its values text in `bytes`; nil when the record had no values element.
        var values: Range<Int>?
        var position: SourcePosition
        var ordinal: Int
        /// Index of its keys in `keySets`.
        var keySet: Int
        /// Set for a record larger than `format.max_record_bytes`: its text was dropped as it came.
        var tooLarge = false
    }

    /// A keys list with the index of the MLS number's key in it (from the mapping), its fingerprint, and which keys
    /// a recognised (stored) record still needs.
    struct KeySet: Sendable {
        var keys: [String]
        var mlsIndex: Int?
        var hash: UInt64 = 0
        var needed: [Bool] = []
        /// The fields a recognised record is split into: up to the last needed one.
        var neededPrefix = 0
        /// How many keys are needed.
        var neededCount = 0

        init(keys: [String], keySources: [String], recognizer: RawRecognizer?) {
            self.keys = keys
            mlsIndex = keySources.lazy.compactMap { keys.firstIndex(of: $0) }.first
            if let recognizer {
                hash = RawHash.keys(keys)
                needed = keys.map { recognizer.neededKeys.contains($0) }
                neededPrefix = (needed.lastIndex(of: true) ?? -1) + 1
                neededCount = needed.count(where: { $0 })
            }
        }
    }

    var bytes: [UInt8] = []
    var entries: [Entry] = []
    var keySets: [KeySet] = []
    var delimiter: [UInt8]
    var valuesElement: String
    var keysElement: String
    var recordElement: String
    /// Fingerprints every record and recognises stored listings (database runs).
    var recognizer: RawRecognizer?
    /// The source keys of the MLS number (`Mapping.keySources`), named in a defect's message.
    var keySources: [String]
    /// `format.max_record_bytes`, named in a too large record's defect.
    var maxRecordBytes: Int

    init(settings: TriplesSettings, keySources: [String], recognizer: RawRecognizer?,
         maxRecordBytes: Int = ParseSettings.defaultMaxRecordBytes) {
        self.recognizer = recognizer
        self.keySources = keySources
        self.maxRecordBytes = maxRecordBytes
        delimiter = Array(settings.delimiter.utf8)
        valuesElement = settings.valuesElement
        keysElement = settings.keysElement
        recordElement = settings.recordElement
    }

    /// An empty batch with the same settings (and room for as many entries as this one held; its bytes come from
    /// the parser when it is submitted).
    func emptied() -> TriplesBatch {
        var next = self
        next.bytes = []
        next.entries = []
        next.entries.reserveCapacity(entries.count)
        next.keySets = []
        return next
    }

    /// The records of `entries[range]`, their fields left in `source` (this batch, shared) to be split later.
    ///
    /// A values/keys count mismatch gives a `defect` record, split here, whose fields pair what they can, with
    /// surplus values under `_extra_value_1`, `_extra_value_2`, ... and no field for a key without a value.
    func convert(_ range: Range<Int>, source: SharedBatch<TriplesBatch>) -> [RawRecord] {
        var records: [RawRecord] = []
        records.reserveCapacity(range.count)
        // Every record's fingerprint first, then all their lookups in one pass: there the lookups' cache misses
        // overlap, where between two records' splits they did not.
        var hashes: [UInt64] = []
        var copies: [StoredCopy?] = []
        if let recognizer {
            let stored = recognizer.stored
            hashes = bytes.withUnsafeBytes { bytes in
                range.map { index in
                    entries[index].values.map { values in
                        recognizer.hash.of(keys: keySets[entries[index].keySet].hash,
                                           values: UnsafeRawBufferPointer(rebasing: bytes[values]))
                    } ?? 0
                }
            }
            copies = stored.lookup(all: hashes)
        }
        for index in range {
            let entry = entries[index]
            guard let values = entry.values else {
                records.append(RawRecord(fields: [], position: entry.position, ordinal: entry.ordinal,
                                         defect: entry.tooLarge ? StructuredXMLHandler.tooLarge(maxRecordBytes)
                                            : "\(recordElement) has no \(valuesElement) element"))
                continue
            }
            let keySet = keySets[entry.keySet]
            var rawHash: UInt64?
            if !hashes.isEmpty {
                let hash = hashes[index - range.lowerBound]
                rawHash = hash
                if let copy = copies[index - range.lowerBound], let fields = neededFields(values, keySet) {
                    records.append(RawRecord(fields: fields, position: entry.position, ordinal: entry.ordinal,
                                             rawHash: hash, stored: copy))
                    continue
                }
            }
            var count = 0
            DelimitedText.forEachField(bytes, values, delimiter: delimiter) { _ in count += 1 }
            guard count == keySet.keys.count else {
                records.append(defective(entry, values, keySet))
                continue
            }
            var record = RawRecord(fields: [], position: entry.position, ordinal: entry.ordinal, rawHash: rawHash)
            record.unsplit = UnsplitFields(source: source, index: index)
            records.append(record)
        }
        return records
    }

    /// Entry `index`'s fields, one per key (its values were counted when it was converted).
    func fields(at index: Int, recent: inout RecentValues) -> [RawField] {
        pairedFields(entries[index].values!, keys: keySets[entries[index].keySet].keys, recent: &recent)
    }

    /// The fields of `values` paired with `keys` in order; values beyond the keys under `_extra_value_1`, ...
    private func pairedFields(_ values: Range<Int>, keys: [String], recent: inout RecentValues) -> [RawField] {
        var fields: [RawField] = []
        fields.reserveCapacity(keys.count)
        DelimitedText.forEachField(bytes, values, delimiter: delimiter) { range in
            let value = recent.string(bytes, range, position: fields.count)
            let key = fields.count < keys.count ? keys[fields.count] : "_extra_value_\(fields.count - keys.count + 1)"
            fields.append(RawField(key, value))
        }
        return fields
    }

    /// The record of an entry whose values count differs from its keys count: the fields it has, and why.
    private func defective(_ entry: Entry, _ values: Range<Int>, _ keySet: KeySet) -> RawRecord {
        let keys = keySet.keys
        var recent = RecentValues()
        let fields = pairedFields(values, keys: keys, recent: &recent)
        var reason = "\(valuesElement) has \(fields.count) fields but \(keysElement) has \(keys.count)"
        if let mlsIndex = keySet.mlsIndex, mlsIndex < fields.count {
            let number = DelimitedText.trimmed(fields[mlsIndex].value)
            if !number.isEmpty { reason += " (MLS \(number))" }
        }
        return RawRecord(fields: fields, position: entry.position, ordinal: entry.ordinal, defect: reason)
    }

    /// The fields of a recognised record that its key set marks needed, split no further than the last of them
    /// (the fingerprint matched a record that was loaded, so its values paired up with its keys); nil when there
    /// are fewer values (it then takes the full path).
    private func neededFields(_ values: Range<Int>, _ keySet: KeySet) -> [RawField]? {
        var fields: [RawField] = []
        // Grown one append at a time, the array was reallocated 5 times per record (1.8% of a reload's instructions).
        fields.reserveCapacity(keySet.neededCount)
        var count = 0
        DelimitedText.forEachField(bytes, values, delimiter: delimiter, maxFields: keySet.neededPrefix) { range in
            if keySet.needed[count] {
                fields.append(RawField(keySet.keys[count], DelimitedText.string(bytes, range)))
            }
            count += 1
        }
        return count == keySet.neededPrefix ? fields : nil
    }
}
