/// RETS COMPACT `DATA` rows read by the parser but not yet split into fields: many rows' texts in one buffer.
///
/// Filled on the parsing thread; converted into `RawRecord`s (one String per field, the costly part) by `convert`,
/// possibly on another thread (`BatchConverter`), a block of rows at a time.
struct RETSRowBatch: Sendable {
    /// One row's place in the batch.
    struct Entry: Sendable {
        /// Its text in `bytes`.
        var text: Range<Int>
        var position: SourcePosition
        var ordinal: Int
    }

    /// How the rows are read: the reply's `COLUMNS`, delimiter and framing.
    struct Layout: Sendable {
        var columns: [String]
        /// Per column: a multi-value lookup (comma-joined parts become repeated keys).
        var multiValued: [Bool]
        var delimiter: [UInt8]
        /// Whether `COLUMNS` began and ended with the delimiter (rows are read the same way).
        var leading: Bool
        var trailing: Bool
    }

    var bytes: [UInt8] = []
    var entries: [Entry] = []
    var layout: Layout

    init(layout: Layout) {
        self.layout = layout
    }

    /// An empty batch with the same layout (and room for as much as this one held).
    func emptied() -> RETSRowBatch {
        var next = RETSRowBatch(layout: layout)
        next.bytes.reserveCapacity(bytes.count)
        next.entries.reserveCapacity(entries.count)
        return next
    }

    /// The records of `entries[range]`: a row with more or fewer fields than `COLUMNS` is a `defect` record, its
    /// surplus values under `_extra_value_1`, `_extra_value_2`, ...
    func convert(_ range: Range<Int>) -> [RawRecord] {
        var records: [RawRecord] = []
        records.reserveCapacity(range.count)
        let columns = layout.columns
        for index in range {
            let entry = entries[index]
            let row = DelimitedText.row(bytes, entry.text, delimiter: layout.delimiter[0])
            var fields = DelimitedText.fields(bytes, row, delimiter: layout.delimiter)
            // Rows are framed like COLUMNS; a row may omit the leading or the trailing delimiter, which is seen when
            // that end is not empty. A row missing a delimiter next to an empty field is ambiguous: read as framed.
            if layout.leading && fields.count > 1 && fields.first!.isEmpty { fields.removeFirst() }
            if layout.trailing && fields.count > 1 && fields.last!.isEmpty { fields.removeLast() }
            var raw: [RawField] = []
            raw.reserveCapacity(columns.count)
            for (position, range) in fields.enumerated() {
                let key = position < columns.count ? columns[position]
                    : "_extra_value_\(position - columns.count + 1)"
                if position < columns.count && layout.multiValued[position] {
                    appendMultiValue(key: key, range, to: &raw)
                } else {
                    raw.append(RawField(key, DelimitedText.string(bytes, range)))
                }
            }
            let defect = fields.count == columns.count
                ? nil : "DATA row has \(fields.count) fields but COLUMNS has \(columns.count)"
            records.append(RawRecord(fields: raw, position: entry.position, ordinal: entry.ordinal, defect: defect))
        }
        return records
    }

    /// A comma-joined lookup field as repeated keys (parts trimmed, empty parts dropped; all empty: one "").
    private func appendMultiValue(key: String, _ range: Range<Int>, to raw: inout [RawField]) {
        var appended = false
        DelimitedText.forEachField(bytes, range, delimiter: [UInt8(ascii: ",")]) { part in
            let trimmed = DelimitedText.trimmed(bytes, part, DelimitedText.isWhitespace)
            if !trimmed.isEmpty {
                raw.append(RawField(key, DelimitedText.string(bytes, trimmed)))
                appended = true
            }
        }
        if !appended { raw.append(RawField(key, "")) }
    }
}
