import XMLStream

/// Reads `format: rets-compact`: a RETS COMPACT or COMPACT-DECODED search reply.
///
/// The root must be `RETS`, and `COLUMNS`, `DATA`, `DELIMITER`, `COUNT`, `MAXROWS` and `RETS-STATUS` are read only
/// as its direct children: a METADATA reply (whose tables hold `COLUMNS`/`DATA` of their own) or any other
/// document fails instead of loading rows that are not listings. A reply code other than 0, 20201 (no records) and
/// 20208 (truncated at the server's row limit) fails the run with the reply text and the reply's own body text.
/// `<DELIMITER value>` is a hex character code (tab when missing). `<COLUMNS>` and each `<DATA>` row are
/// delimiter-joined with a leading and a trailing delimiter; either may be missing. A row whose field count differs
/// from the columns is a `defect` record. `<MAXROWS/>`, 20208 and a `COUNT` differing from the rows are warnings;
/// the first two (and a `COUNT` above the rows) also make the dump incomplete (see `Completeness`). A `COUNT` that
/// is not a whole number of 0 or more is a warning and ignored (`DeclaredCount`).
final class RETSCompactHandler: RecordHandler {
    private var records: [RawRecord] = []
    private(set) var report = ParseReport()

    private let settings: RETSSettings
    private let source: String

    private var retsName: XMLName?
    private var statusName: XMLName?
    private var delimiterName: XMLName?
    private var columnsName: XMLName?
    private var dataName: XMLName?
    private var countName: XMLName?
    private var maxRowsName: XMLName?

    private var delimiter: [UInt8] = [0x09]
    private var columns: [String]?
    /// Whether the COLUMNS row had a leading and a trailing delimiter: DATA rows are read the same way.
    private var framing = (leading: true, trailing: true)
    private var multiValued: [Bool] = []
    private var capturing: XMLName?
    private var rowPosition = SourcePosition(file: "", line: 0, column: 0)
    /// The open elements, root first.
    private var open: [XMLName] = []
    private var rows = 0
    private var noRecordsReply = false
    /// An error reply: its code and text, thrown with the reply's body text once the root element ends.
    private var errorReply: (code: String, text: String, position: SourcePosition)?

    /// The longest part of an error reply's body text kept in the message.
    private static let bodyLimit = 500

    init(settings: RETSSettings, source: String) {
        self.settings = settings
        self.source = source
    }

    func takeRecords() -> [RawRecord] {
        let taken = records
        records = []
        return taken
    }

    func bind(_ parser: XMLPushParser) {
        retsName = parser.name("RETS")
        statusName = parser.name("RETS-STATUS")
        delimiterName = parser.name("DELIMITER")
        columnsName = parser.name("COLUMNS")
        dataName = parser.name("DATA")
        countName = parser.name("COUNT")
        maxRowsName = parser.name("MAXROWS")
    }

    func startElement(_ name: XMLName, parser: XMLPushParser) throws {
        defer { open.append(name) }
        if capturing != nil || errorReply != nil { return }
        guard let parent = open.last else {
            guard name == retsName else {
                throw InputError("expected a RETS search reply (root element RETS), found \(name)",
                                 at: position(parser.startTagPosition))
            }
            try checkReply(code: parser.attribute("ReplyCode"), text: parser.attribute("ReplyText"),
                           at: position(parser.startTagPosition), parser: parser)
            return
        }
        guard open.count == 1 else {
            if name == dataName || name == columnsName {
                throw InputError("\(name) inside \(parent): not a RETS search reply (a METADATA reply?); a listing "
                                 + "pipeline reads COLUMNS and DATA only directly under RETS",
                                 at: position(parser.startTagPosition))
            }
            return
        }
        if name == dataName || name == columnsName {
            if name == dataName {
                rowPosition = position(parser.startTagPosition)
                if columns == nil { throw InputError("DATA row before COLUMNS", at: rowPosition) }
            }
            capturing = name
            parser.clearText()
            parser.capturesText = true
        } else if name == statusName {
            try checkReply(code: parser.attribute("ReplyCode"), text: parser.attribute("ReplyText"),
                           at: position(parser.startTagPosition), parser: parser)
        } else if name == delimiterName {
            try readDelimiter(parser.attribute("value"), at: position(parser.startTagPosition))
        } else if name == countName {
            if let records = parser.attribute("Records") {
                DeclaredCount.read(records, written: { "COUNT Records=\(quoted($0))" },
                                   at: position(parser.startTagPosition), into: &report)
            }
        } else if name == maxRowsName {
            report.maxRows = true
            report.warnings.append("MAXROWS: the server stopped at its row limit; the result may be incomplete")
        }
    }

    func endElement(_ name: XMLName, parser: XMLPushParser) throws {
        open.removeLast()
        if let row = capturing {
            guard name == row, open.count == 1 else { return }
            capturing = nil
            parser.capturesText = false
            if name == dataName {
                emitRow(parser.text)
            } else {
                readColumns(parser.text)
            }
        } else if open.isEmpty {
            if let reply = errorReply {
                let body = Self.collapsed(parser.text)
                throw InputError("RETS reply code \(reply.code): \(reply.text.isEmpty ? "(no ReplyText)" : reply.text)"
                                 + (body.isEmpty ? "" : " (\(body))"), at: reply.position)
            }
            if let declared = report.declaredCount, declared != rows {
                report.warnings.append("COUNT says \(declared) records but \(rows) DATA rows were read")
            }
        }
    }

    func finish(_ parser: XMLPushParser) throws {
        if rows == 0 && !noRecordsReply {
            report.noRecords = columns == nil ? "no COLUMNS and no DATA rows in this RETS reply" : "no DATA rows"
        }
    }

    // MARK: - Reply codes, delimiter, columns

    private func checkReply(code: String?, text: String?, at position: SourcePosition, parser: XMLPushParser) throws {
        let code = code.map(DelimitedText.trimmed) ?? "0"
        let text = text.map(DelimitedText.trimmed) ?? ""
        switch Int(code) {
        case 0:
            return
        case 20201:
            noRecordsReply = true
        case 20208:
            report.truncated = true
            report.warnings.append("RETS reply code 20208 (result truncated at the server's row limit): \(text)")
        default:
            // Read on to the end of the reply: servers explain errors in its body (20203 lists the valid classes).
            errorReply = (code, text, position)
            parser.clearText()
            parser.capturesText = true
        }
    }

    /// Whitespace runs as one space, trimmed, cut at `bodyLimit` characters.
    private static func collapsed(_ bytes: [UInt8]) -> String {
        let words = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        let text = words.joined(separator: " ")
        return text.count > bodyLimit ? String(text.prefix(bodyLimit)) + "…" : text
    }

    private func readDelimiter(_ value: String?, at position: SourcePosition) throws {
        guard let value else { return }
        let hex = DelimitedText.trimmed(value)
        guard let code = UInt8(hex, radix: 16), code != 0 else {
            throw InputError("DELIMITER value \"\(value)\" is not a hexadecimal character code", at: position)
        }
        delimiter = [code]
    }

    private func readColumns(_ text: [UInt8]) {
        var fields = DelimitedText.fields(text, rowRange(text), delimiter: delimiter)
        framing = (fields.count > 1 && fields.first!.isEmpty, fields.count > 1 && fields.last!.isEmpty)
        if framing.leading { fields.removeFirst() }
        if framing.trailing && fields.count > 1 { fields.removeLast() }
        let names = fields.map {
            DelimitedText.string(text, DelimitedText.trimmed(text, $0) { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D })
        }
        columns = names
        multiValued = names.map { settings.multiValueColumns.contains($0) }
    }

    // MARK: - Rows

    /// The row text without surrounding line ends (unless the delimiter is one).
    private func rowRange(_ text: [UInt8]) -> Range<Int> {
        let delimiter = self.delimiter[0]
        return DelimitedText.trimmed(text, text.indices) { ($0 == 0x0A || $0 == 0x0D) && $0 != delimiter }
    }

    private func emitRow(_ text: [UInt8]) {
        guard let columns else { return }
        defer { rows += 1 }
        var fields = DelimitedText.fields(text, rowRange(text), delimiter: delimiter)
        // Rows are framed like COLUMNS; a row may omit the leading or the trailing delimiter, which is seen when
        // that end is not empty. A row missing a delimiter next to an empty field is ambiguous: read as framed.
        if framing.leading && fields.count > 1 && fields.first!.isEmpty { fields.removeFirst() }
        if framing.trailing && fields.count > 1 && fields.last!.isEmpty { fields.removeLast() }
        var raw: [RawField] = []
        raw.reserveCapacity(columns.count)
        for (index, range) in fields.enumerated() {
            let key = index < columns.count ? columns[index] : "_extra_value_\(index - columns.count + 1)"
            if index < columns.count && multiValued[index] {
                appendMultiValue(key: key, text, range, to: &raw)
            } else {
                raw.append(RawField(key, DelimitedText.string(text, range)))
            }
        }
        let defect = fields.count == columns.count
            ? nil : "DATA row has \(fields.count) fields but COLUMNS has \(columns.count)"
        records.append(RawRecord(fields: raw, position: rowPosition, ordinal: rows, defect: defect))
    }

    /// A comma-joined lookup field as repeated keys (parts trimmed, empty parts dropped; all empty: one "").
    private func appendMultiValue(key: String, _ text: [UInt8], _ range: Range<Int>, to raw: inout [RawField]) {
        var appended = false
        DelimitedText.forEachField(text, range, delimiter: [UInt8(ascii: ",")]) { part in
            let trimmed = DelimitedText.trimmed(text, part, DelimitedText.isWhitespace)
            if !trimmed.isEmpty {
                raw.append(RawField(key, DelimitedText.string(text, trimmed)))
                appended = true
            }
        }
        if !appended { raw.append(RawField(key, "")) }
    }

    private func position(_ place: (line: Int, column: Int)) -> SourcePosition {
        SourcePosition(file: source, line: place.line, column: place.column)
    }
}
