import XMLStream

/// Reads `format: triples`: parallel delimiter-joined `labels` / `keys` / `values` lists.
///
/// Both shapes: lists inside each record (per-record), or `labels`/`keys` once before the records, which then
/// carry only `values` (header-once); keys inside a record win over the header. Labels are optional and only
/// read, never emitted. Keys are trimmed of whitespace; values are kept exactly as decoded (an empty slot is
/// the empty string, a missing value). Count mismatches become `defect` records (see `TriplesBatch.convert`).
///
/// The parser thread only gathers the records' values texts, one after the other in the parser's text buffer,
/// which becomes a `TriplesBatch` without a copy; fingerprinting and counting them happens in `BatchConverter`, on a
/// second thread for big batches, and splitting them into fields in the normalize stage. Per-event state skips the
/// runtime exclusivity check: only the parser's thread touches it, one event at a time.
final class TriplesHandler: RecordHandler {
    /// Entries (or buffered bytes) at which a batch goes to the worker thread.
    static let batchEntries = 512
    static let batchBytes = 1 << 20

    private(set) var report = ParseReport()

    private let settings: TriplesSettings
    private let source: String
    private let delimiter: [UInt8]
    private let converter = BatchConverter<SharedBatch<TriplesBatch>> { shared, range in
        shared.batch.convert(range, source: shared)
    }
    /// Texts of batches whose records are all split, for the parser's next batches.
    private let spares = SpareTexts()
    @exclusivity(unchecked) private var batch: TriplesBatch

    private var recordName: XMLName?
    private var labelsName: XMLName?
    private var keysName: XMLName?
    private var valuesName: XMLName?

    /// Keys given once before the records (header-once shape).
    private var headerKeys: TriplesBatch.KeySet?
    /// Where `headerKeys` sit in `batch.keySets`.
    @exclusivity(unchecked) private var headerKeySet: Int?

    /// The list element whose text is being captured, and where its text starts in the parser's buffer.
    @exclusivity(unchecked) private var capturing: XMLName?
    @exclusivity(unchecked) private var captureStart = 0
    @exclusivity(unchecked) private var inRecord = false
    @exclusivity(unchecked) private var recordPosition = SourcePosition(file: "", line: 0, column: 0)
    @exclusivity(unchecked) private var recordKeys: TriplesBatch.KeySet?
    @exclusivity(unchecked) private var recordValues: Range<Int>?
    @exclusivity(unchecked) private var ordinal = 0
    @exclusivity(unchecked) private var sawRoot = false
    /// A record (or a list outside one) holding more text than this is not gathered (`format.max_record_bytes`).
    private let maxRecordBytes: Int
    /// Where the open record's text starts in the parser's buffer (its lists' texts follow).
    @exclusivity(unchecked) private var recordTextStart = 0
    /// Set while the rest of a record larger than `maxRecordBytes` goes by unread.
    @exclusivity(unchecked) private var recordTooLarge = false
    /// Where a list outside a record starts (named when it is too long).
    private var listPosition = SourcePosition(file: "", line: 0, column: 0)

    /// A handler of `source`; `maxRecordBytes` bounds a record's lists and a header list.
    init(settings: TriplesSettings, source: String, keySources: [String], recognizer: RawRecognizer? = nil,
         maxRecordBytes: Int = ParseSettings.defaultMaxRecordBytes) {
        self.settings = settings
        self.source = source
        self.maxRecordBytes = maxRecordBytes
        self.delimiter = Array(settings.delimiter.utf8)
        self.batch = TriplesBatch(settings: settings, keySources: keySources, recognizer: recognizer,
                                  maxRecordBytes: maxRecordBytes)
    }

    func bind(_ parser: XMLPushParser) {
        recordName = parser.name(settings.recordElement)
        labelsName = parser.name(settings.labelsElement)
        keysName = parser.name(settings.keysElement)
        valuesName = parser.name(settings.valuesElement)
    }

    func startElement(_ name: XMLName, parser: XMLPushParser) throws {
        if capturing != nil || recordTooLarge { return }
        if !sawRoot {
            sawRoot = true
            report.generated = parser.attribute("generated")
        }
        if name == valuesName || name == keysName || name == labelsName {
            if name == valuesName && !inRecord {
                throw InputError("\(settings.valuesElement) element outside a \(settings.recordElement) element",
                                 at: position(parser.startTagPosition))
            }
            capturing = name
            captureStart = parser.text.count
            parser.capturesText = true
            if !inRecord { listPosition = position(parser.startTagPosition) }
        } else if name == recordName {
            inRecord = true
            recordPosition = position(parser.startTagPosition)
            recordKeys = nil
            recordValues = nil
            recordTextStart = parser.text.count
        }
    }

    func endElement(_ name: XMLName, parser: XMLPushParser) throws {
        if recordTooLarge {
            guard name == recordName else { return }
            recordTooLarge = false
            inRecord = false
            batch.entries.append(TriplesBatch.Entry(values: nil, position: recordPosition, ordinal: ordinal, keySet: -1,
                                                    tooLarge: true))
            ordinal += 1
            return
        }
        if let list = capturing {
            guard name == list else { return }
            capturing = nil
            parser.capturesText = false
            if name == valuesName {
                recordValues = captureStart..<parser.text.count
            } else if name == keysName {
                let keys = splitKeys(parser.text, captureStart..<parser.text.count)
                let keySet = TriplesBatch.KeySet(keys: keys, keySources: batch.keySources,
                                                 recognizer: batch.recognizer)
                if inRecord {
                    recordKeys = keySet
                } else {
                    headerKeys = keySet
                    headerKeySet = nil
                }
                parser.clearText(from: captureStart)
            } else {
                parser.clearText(from: captureStart)
            }
        } else if name == recordName && inRecord {
            inRecord = false
            try endRecord()
        }
    }

    /// Hands full batches on; first bounds what the open record or list holds (checked once a chunk: a few compares
    /// per 256 KiB, and the buffer holds at most `maxRecordBytes` and a chunk more).
    func chunkEnded(_ parser: XMLPushParser) throws {
        if inRecord || capturing != nil { try bound(parser) }
        if batch.entries.count >= Self.batchEntries || parser.text.count >= Self.batchBytes {
            submit(parser, inBackground: true)
        }
    }

    func finish(_ parser: XMLPushParser) throws {
        submit(parser, inBackground: false)
        if ordinal == 0 { report.noRecords = "no <\(settings.recordElement)> elements (format.record)" }
    }

    func takeRecords() -> [RawRecord] {
        converter.takeReady()
    }

    /// Keeps the open record within `maxRecordBytes`: a larger one is dropped (its text so far, and the rest as it
    /// comes) and becomes a defect at its end; a longer list outside a record (header keys or labels) fails the
    /// input, as the records after it could not be read without it.
    private func bound(_ parser: XMLPushParser) throws {
        if inRecord {
            guard !recordTooLarge, parser.text.count - recordTextStart > maxRecordBytes else { return }
            recordTooLarge = true
            parser.clearText(from: min(recordTextStart, parser.text.count))
            parser.capturesText = false
            capturing = nil
            recordKeys = nil
            recordValues = nil
        } else if let list = capturing, parser.text.count - captureStart > maxRecordBytes {
            throw InputError("\(list) is larger than format.max_record_bytes (\(maxRecordBytes) bytes)",
                             at: listPosition)
        }
    }

    // MARK: - Records

    private func endRecord() throws {
        defer { ordinal += 1 }
        let keySet: Int
        if let recordKeys {
            keySet = batch.keySets.count
            batch.keySets.append(recordKeys)
        } else if let headerKeySet {
            keySet = headerKeySet
        } else if let headerKeys {
            keySet = batch.keySets.count
            batch.keySets.append(headerKeys)
            headerKeySet = keySet
        } else if recordValues != nil {
            throw InputError("\(settings.recordElement) has \(settings.valuesElement) but no \(settings.keysElement) "
                             + "(neither inside it nor before it)", at: recordPosition)
        } else {
            keySet = -1
        }
        batch.entries.append(TriplesBatch.Entry(values: recordValues, position: recordPosition, ordinal: ordinal,
                                                keySet: keySet))
    }

    private func submit(_ parser: XMLPushParser, inBackground: Bool) {
        guard !batch.entries.isEmpty else {
            if !inBackground { converter.complete() }
            return
        }
        // Text of the record (or list) still open stays with the parser, shifted to the start of its buffer.
        var keep = parser.text.count
        if capturing != nil { keep = captureStart }
        if inRecord, let values = recordValues { keep = min(keep, values.lowerBound) }
        recordTextStart = max(0, recordTextStart - keep)
        var full = batch
        // The parser's next text goes into the buffer of a batch whose records are all split.
        full.bytes = parser.takeText(keepingFrom: keep, reusing: spares.take())
        batch = full.emptied()
        headerKeySet = nil
        if capturing != nil { captureStart -= keep }
        if inRecord, let values = recordValues {
            recordValues = (values.lowerBound - keep)..<(values.upperBound - keep)
        }
        converter.submit(SharedBatch(full, spares: spares), count: full.entries.count, inBackground: inBackground)
    }

    private func splitKeys(_ text: [UInt8], _ range: Range<Int>) -> [String] {
        DelimitedText.fields(text, range, delimiter: delimiter).map {
            DelimitedText.string(text, DelimitedText.trimmed(text, $0, DelimitedText.isWhitespace))
        }
    }

    private func position(_ place: (line: Int, column: Int)) -> SourcePosition {
        SourcePosition(file: source, line: place.line, column: place.column)
    }
}
