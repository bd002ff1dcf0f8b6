/// RETS COMPACT `DATA` rows read by the parser but not yet split into fields: many rows' texts in one buffer.
///
/// Filled on the parsing thread; converted into `RawRecord`s by `convert`, possibly on another thread
/// (`BatchConverter`), a block of rows at a time: counted and fingerprinted, their fields left in `bytes` for the
/// normalize stage to split (`fields(at:recent:)`, one String per long value, the costly part).
struct RETSRowBatch: SplittableBatch {
    /// One row's place in the batch.
    struct Entry: Sendable {
        /// Its text in `bytes`.
        var text: Range<Int>
        var position: SourcePosition
        var ordinal: Int
        /// Set for a row longer than `format.max_record_bytes`: its text was dropped as it came (`text` is empty).
        var tooLarge = false
    }

    /// How the rows are read: the reply's `COLUMNS`, delimiter and framing.
    struct Layout: Sendable {
        var columns: [String]
        /// Per column: a multi-value lookup (comma-joined parts become repeated keys).
        var multiValued: [Bool]
        /// Per column: whether a recognised (stored) row still needs it (`RawRecognizer.neededKeys`).
        var needed: [Bool]
        var delimiter: [UInt8]
        /// Whether `COLUMNS` began and ended with the delimiter (rows are read the same way).
        var leading: Bool
        var trailing: Bool
        /// The fingerprint of everything but a row's bytes that decides how it splits: the columns, which of them
        /// are multi-valued, and the delimiter (`RawHash.of(keys:values:)`).
        let fingerprint: UInt64

        init(columns: [String], multiValued: [Bool], needed: [Bool], delimiter: [UInt8], leading: Bool,
             trailing: Bool) {
            self.columns = columns
            self.multiValued = multiValued
            self.needed = needed
            self.delimiter = delimiter
            self.leading = leading
            self.trailing = trailing
            let multi = String(multiValued.map { $0 ? "1" : "0" })
            fingerprint = RawHash.keys(["RETS COMPACT row", "delimiter \(delimiter)", "multi-valued \(multi)"]
                                       + columns)
        }
    }

    var bytes: [UInt8] = []
    var entries: [Entry] = []
    var layout: Layout
    /// Fingerprints every row and recognises stored listings (database runs).
    var recognizer: RawRecognizer?
    /// `format.max_record_bytes`, named in a too large row's defect.
    var maxRecordBytes: Int

    init(layout: Layout, recognizer: RawRecognizer?, maxRecordBytes: Int = ParseSettings.defaultMaxRecordBytes) {
        self.layout = layout
        self.recognizer = recognizer
        self.maxRecordBytes = maxRecordBytes
    }

    /// An empty batch with the same layout (and room for as many entries as this one held; its bytes come from
    /// the parser when it is submitted).
    func emptied() -> RETSRowBatch {
        var next = RETSRowBatch(layout: layout, recognizer: recognizer, maxRecordBytes: maxRecordBytes)
        next.entries.reserveCapacity(entries.count)
        return next
    }

    /// The records of `entries[range]`: a row with more or fewer fields than `COLUMNS` is a `defect` record, its
    /// surplus values under `_extra_value_1`, `_extra_value_2`, ...
    ///
    /// With a `recognizer`, each whole row is fingerprinted from its bytes (from its first field to its last, so
    /// its framing does not count) and the layout's fingerprint, as a triples record is from its values text; a row
    /// that is an unchanged copy of a stored listing keeps only the fields the recognizer needs, so most of a
    /// reload's values never become Strings.
    func convert(_ range: Range<Int>, source: SharedBatch<RETSRowBatch>) -> [RawRecord] {
        var records: [RawRecord] = []
        records.reserveCapacity(range.count)
        let columns = layout.columns
        let stored = recognizer?.stored
        var fields: [Range<Int>] = []  // one row's field ranges, reused from row to row
        let neededCount = layout.needed.count(where: { $0 })
        let lastNeeded = layout.needed.lastIndex(of: true)
        for index in range {
            let entry = entries[index]
            if entry.tooLarge {
                records.append(RawRecord(fields: [], position: entry.position, ordinal: entry.ordinal,
                                         defect: StructuredXMLHandler.tooLarge(maxRecordBytes)))
                continue
            }
            let (row, count, span) = frame(entry, fields: &fields)
            guard count == columns.count else {
                _ = split(entry, into: &fields)  // a defective row keeps every field it has
                var raw: [RawField] = []
                forEachField(fields) { raw.append(RawField($0, DelimitedText.string(bytes, $2))) }
                let defect = "DATA row has \(count) fields but COLUMNS has \(columns.count)"
                records.append(RawRecord(fields: raw, position: entry.position, ordinal: entry.ordinal, defect: defect))
                continue
            }
            var rawHash: UInt64?
            if let recognizer, let stored {
                // One pass over the row's bytes, not field by field with each field's key mixed in as well.
                let fingerprint = bytes.withUnsafeBytes { buffer in
                    recognizer.hash.of(keys: layout.fingerprint, values: UnsafeRawBufferPointer(rebasing: buffer[span]))
                }
                rawHash = fingerprint
                if let copy = stored.lookup(fingerprint) {
                    var raw: [RawField] = []
                    raw.reserveCapacity(neededCount)
                    if let lastNeeded {
                        forEachNeededField(row, through: lastNeeded) { key, value in
                            raw.append(RawField(key, DelimitedText.string(bytes, value)))
                        }
                    }
                    records.append(RawRecord(fields: raw, position: entry.position, ordinal: entry.ordinal,
                                             rawHash: fingerprint, stored: copy))
                    continue
                }
            }
            var record = RawRecord(fields: [], position: entry.position, ordinal: entry.ordinal, rawHash: rawHash)
            record.unsplit = UnsplitFields(source: source, index: index)
            records.append(record)
        }
        return records
    }

    /// The entry's row, its field count and its span (from its first field's start to its last field's end) as `split`
    /// frames them. A one-byte delimiter is counted (`DelimitedText.count`), without a range per field; a longer
    /// one splits the row into `fields`.
    func frame(_ entry: Entry, fields: inout [Range<Int>]) -> (row: Range<Int>, count: Int, span: Range<Int>) {
        guard layout.delimiter.count == 1 else {
            let row = split(entry, into: &fields)
            return (row, fields.count,
                    (fields.first?.lowerBound ?? row.lowerBound)..<(fields.last?.upperBound ?? row.lowerBound))
        }
        let delimiter = layout.delimiter[0]
        let row = DelimitedText.row(bytes, entry.text, delimiter: delimiter)
        var count = DelimitedText.count(delimiter, in: bytes, row) + 1
        var span = row
        // `split` drops an empty first and last field of a framed row: the delimiters at its ends.
        if layout.leading && count > 1 && bytes[span.lowerBound] == delimiter {
            count -= 1
            span = (span.lowerBound + 1)..<span.upperBound
        }
        if layout.trailing && count > 1 && bytes[span.upperBound - 1] == delimiter {
            count -= 1
            span = span.lowerBound..<(span.upperBound - 1)
        }
        return (row, count, span)
    }

    /// Calls `body` with the key and value of each raw field of a whole `row` (its field count checked) whose column
    /// the recognizer needs, in order; the row is split only as far as `lastNeeded`, the last such column.
    private func forEachNeededField(_ row: Range<Int>, through lastNeeded: Int, _ body: (String, Range<Int>) -> Void) {
        let skip = layout.leading && bytes[row].starts(with: layout.delimiter) ? 1 : 0
        var column = -skip
        DelimitedText.forEachField(bytes, row, delimiter: layout.delimiter, maxFields: skip + lastNeeded + 1) { range in
            defer { column += 1 }
            guard column >= 0, layout.needed[column] else { return }
            forEachValue(column, range) { key, _, value in body(key, value) }
        }
    }

    /// Entry `index`'s fields (its field count was checked when it was converted).
    ///
    /// Its framed fields are then the row's fields from the second on when the row starts with the delimiter
    /// (framed with a leading one, as `split` reads it), else from the first, `COLUMNS`' count of them: read straight
    /// from the row, without a list of their ranges.
    func fields(at index: Int, recent: inout RecentValues) -> [RawField] {
        let columns = layout.columns.count
        let row = DelimitedText.row(bytes, entries[index].text, delimiter: layout.delimiter[0])
        let skip = layout.leading && bytes[row].starts(with: layout.delimiter) ? 1 : 0
        var raw: [RawField] = []
        raw.reserveCapacity(columns)
        var column = -skip
        DelimitedText.forEachField(bytes, row, delimiter: layout.delimiter, maxFields: skip + columns) { range in
            defer { column += 1 }
            guard column >= 0 else { return }
            forEachValue(column, range) { raw.append(RawField($0, recent.string(bytes, $2, position: raw.count))) }
        }
        return raw
    }

    /// Puts the field ranges of `entry`'s row into `fields` and returns the row's range (`frame` counts them).
    ///
    /// Rows are framed like COLUMNS; a row may omit the leading or the trailing delimiter, which is seen when that
    /// end is not empty. A row missing a delimiter next to an empty field is ambiguous: read as framed.
    func split(_ entry: Entry, into fields: inout [Range<Int>]) -> Range<Int> {
        let row = DelimitedText.row(bytes, entry.text, delimiter: layout.delimiter[0])
        fields.removeAll(keepingCapacity: true)
        DelimitedText.forEachField(bytes, row, delimiter: layout.delimiter) { fields.append($0) }
        if layout.leading && fields.count > 1 && fields.first!.isEmpty { fields.removeFirst() }
        if layout.trailing && fields.count > 1 && fields.last!.isEmpty { fields.removeLast() }
        return row
    }

    /// Calls `body` with each raw field of a row's `fields` in order: its key, its column (`columns.count` and up
    /// for surplus values) and its value's bytes. A multi-value column gives one field per comma-joined part
    /// (trimmed, empty parts dropped; when all are empty, one empty field).
    private func forEachField(_ fields: [Range<Int>], _ body: (String, Int, Range<Int>) -> Void) {
        for (column, range) in fields.enumerated() { forEachValue(column, range, body) }
    }

    /// Calls `body` with the raw fields of one field of a row, at `column`, as `forEachField` does.
    private func forEachValue(_ column: Int, _ range: Range<Int>, _ body: (String, Int, Range<Int>) -> Void) {
        let columns = layout.columns
        guard column < columns.count else {
            body("_extra_value_\(column - columns.count + 1)", column, range)
            return
        }
        guard layout.multiValued[column] else {
            body(columns[column], column, range)
            return
        }
        var appended = false
        DelimitedText.forEachField(bytes, range, delimiter: [UInt8(ascii: ",")]) { part in
            let trimmed = DelimitedText.trimmed(bytes, part, DelimitedText.isWhitespace)
            if !trimmed.isEmpty {
                body(columns[column], column, trimmed)
                appended = true
            }
        }
        if !appended { body(columns[column], column, range.lowerBound..<range.lowerBound) }
    }
}
