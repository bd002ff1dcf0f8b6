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
///
/// The parser thread only gathers the rows' texts, one after the other in the parser's text buffer, which becomes a
/// `RETSRowBatch` without a copy; counting their fields happens in `BatchConverter`, on a second thread for big
/// batches, as for triples, and splitting them into fields in the normalize stage. In a database run the rows are
/// fingerprinted in `BatchConverter` too, and the unchanged copies of stored listings recognised there
/// (`RETSRowBatch.convert`).
final class RETSCompactHandler: RecordHandler {
    /// Entries (or buffered bytes) at which a batch of rows goes to the worker thread.
    static let batchEntries = 512
    static let batchBytes = 1 << 20

    private(set) var report = ParseReport()
    private let converter = BatchConverter<SharedBatch<RETSRowBatch>> { shared, range in
        shared.batch.convert(range, source: shared)
    }
    /// Texts of batches whose rows are all split, for the parser's next batches.
    private let spares = SpareTexts()
    /// Rows read since the last hand-over; nil until `COLUMNS` was read.
    private var batch: RETSRowBatch?
    /// Where the open `DATA` row's text starts in the parser's buffer.
    private var captureStart = 0
    /// A row (or `COLUMNS`) longer than this is not gathered (`format.max_record_bytes`).
    private let maxRecordBytes: Int
    /// Set while the rest of a row longer than `maxRecordBytes` goes by unread.
    private var rowTooLarge = false
    /// Where `COLUMNS` starts (named when it is too long).
    private var columnsPosition = SourcePosition(file: "", line: 0, column: 0)

    private let settings: RETSSettings
    private let source: String
    private let recognizer: RawRecognizer?

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

    /// A handler of `source`; `maxRecordBytes` bounds a row, `COLUMNS` and an error reply's body text.
    init(settings: RETSSettings, source: String, recognizer: RawRecognizer? = nil,
         maxRecordBytes: Int = ParseSettings.defaultMaxRecordBytes) {
        self.settings = settings
        self.source = source
        self.recognizer = recognizer
        self.maxRecordBytes = maxRecordBytes
    }

    func takeRecords() -> [RawRecord] {
        converter.takeReady()
    }

    /// Hands full batches on; first bounds what the open capture holds (checked once a chunk: a few compares per
    /// 256 KiB, and the buffer holds at most `maxRecordBytes` and a chunk more).
    func chunkEnded(_ parser: XMLPushParser) throws {
        if capturing != nil || errorReply != nil { try bound(parser) }
        guard capturing == nil || capturing == dataName, let batch else { return }
        if batch.entries.count >= Self.batchEntries || parser.text.count >= Self.batchBytes {
            submit(parser, inBackground: true)
        }
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
        if name == dataName {
            rowPosition = position(parser.startTagPosition)
            if columns == nil { throw InputError("DATA row before COLUMNS", at: rowPosition) }
            capturing = name
            captureStart = parser.text.count
            parser.capturesText = true
        } else if name == columnsName {
            // The buffer then holds the columns alone: rows read so far go with the earlier columns.
            submit(parser, inBackground: false)
            columnsPosition = position(parser.startTagPosition)
            capturing = name
            parser.clearText()
            parser.capturesText = true
        } else if name == statusName {
            try checkReply(code: parser.attribute("ReplyCode"), text: parser.attribute("ReplyText"),
                           at: position(parser.startTagPosition), parser: parser)
        } else if name == delimiterName {
            // Rows read so far were split with the delimiter they were read under.
            submit(parser, inBackground: false)
            try readDelimiter(parser.attribute("value"), at: position(parser.startTagPosition))
            batch?.layout.delimiter = delimiter
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
                if rowTooLarge {
                    rowTooLarge = false
                    batch?.entries.append(RETSRowBatch.Entry(text: captureStart..<captureStart, position: rowPosition,
                                                             ordinal: rows, tooLarge: true))
                } else {
                    batch?.entries.append(RETSRowBatch.Entry(text: captureStart..<parser.text.count,
                                                             position: rowPosition, ordinal: rows))
                }
                rows += 1
            } else {
                readColumns(parser.text)
                parser.clearText()
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
        submit(parser, inBackground: false)
        if rows == 0 && !noRecordsReply {
            report.noRecords = columns == nil ? "no COLUMNS and no DATA rows in this RETS reply" : "no DATA rows"
        }
    }

    /// Keeps the open capture within `maxRecordBytes`: a longer row is dropped (its text so far, and the rest as it
    /// comes) and becomes a defect at its end; a longer `COLUMNS` fails the input (no row could be read without
    /// it); an error reply's body text is cut (only its start goes into the message).
    private func bound(_ parser: XMLPushParser) throws {
        if capturing == dataName {
            guard !rowTooLarge, parser.text.count - captureStart > maxRecordBytes else { return }
            rowTooLarge = true
            parser.clearText(from: captureStart)
            parser.capturesText = false
        } else if capturing == columnsName {
            guard parser.text.count > maxRecordBytes else { return }
            throw InputError("COLUMNS is larger than format.max_record_bytes (\(maxRecordBytes) bytes)",
                             at: columnsPosition)
        } else if errorReply != nil, parser.text.count > maxRecordBytes {
            parser.clearText(from: maxRecordBytes)
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
            submit(parser, inBackground: false)
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
        var fields = DelimitedText.fields(text, DelimitedText.row(text, text.indices, delimiter: delimiter[0]),
                                          delimiter: delimiter)
        framing = (fields.count > 1 && fields.first!.isEmpty, fields.count > 1 && fields.last!.isEmpty)
        if framing.leading { fields.removeFirst() }
        if framing.trailing && fields.count > 1 { fields.removeLast() }
        let names = fields.map {
            DelimitedText.string(text, DelimitedText.trimmed(text, $0) { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D })
        }
        columns = names
        batch = RETSRowBatch(layout: RETSRowBatch.Layout(
            columns: names, multiValued: names.map { settings.multiValueColumns.contains($0) },
            needed: names.map { recognizer?.neededKeys.contains($0) ?? false },
            delimiter: delimiter, leading: framing.leading, trailing: framing.trailing), recognizer: recognizer,
            maxRecordBytes: maxRecordBytes)
    }

    // MARK: - Rows

    /// Hands the rows read so far to the converter: to its worker thread, or converted right here (and every
    /// earlier batch completed) when `inBackground` is false. The open row's text stays with the parser.
    private func submit(_ parser: XMLPushParser, inBackground: Bool) {
        guard var full = batch, !full.entries.isEmpty else {
            if !inBackground { converter.complete() }
            return
        }
        let keep = capturing == dataName ? captureStart : parser.text.count
        full.bytes = parser.takeText(keepingFrom: keep, reusing: spares.take())
        batch = full.emptied()
        if capturing == dataName { captureStart -= keep }
        converter.submit(SharedBatch(full, spares: spares), count: full.entries.count, inBackground: inBackground)
    }

    private func position(_ place: (line: Int, column: Int)) -> SourcePosition {
        SourcePosition(file: source, line: place.line, column: place.column)
    }
}
