import XMLStream

/// Reads `format: triples`: parallel delimiter-joined `labels` / `keys` / `values` lists.
///
/// Both shapes: lists inside each record (per-record), or `labels`/`keys` once before the records, which then
/// carry only `values` (header-once); keys inside a record win over the header. Labels are optional and only
/// read, never emitted. Keys are trimmed of whitespace; values are kept exactly as decoded (an empty slot is
/// the empty string, a missing value). Count mismatches become `defect` records (see `TriplesBatch.convert`).
///
/// The parser thread only gathers each record's values text into a `TriplesBatch`; splitting it into fields
/// happens in `BatchConverter`, on a second thread for big batches.
final class TriplesHandler: RecordHandler {
    /// Entries (or buffered bytes) at which a batch goes to the worker thread.
    static let batchEntries = 512
    static let batchBytes = 1 << 20

    private(set) var report = ParseReport()

    private let settings: TriplesSettings
    private let source: String
    private let delimiter: [UInt8]
    private let converter = BatchConverter<TriplesBatch> { batch, range in batch.convert(range) }
    private var batch: TriplesBatch

    private var recordName: XMLName?
    private var labelsName: XMLName?
    private var keysName: XMLName?
    private var valuesName: XMLName?

    /// Keys given once before the records (header-once shape).
    private var headerKeys: TriplesBatch.KeySet?
    /// Where `headerKeys` sit in `batch.keySets`.
    private var headerKeySet: Int?

    /// The list element whose text is being captured.
    private var capturing: XMLName?
    private var inRecord = false
    private var recordPosition = SourcePosition(file: "", line: 0, column: 0)
    private var recordKeys: TriplesBatch.KeySet?
    private var recordValues: Range<Int>?
    private var ordinal = 0

    init(settings: TriplesSettings, source: String) {
        self.settings = settings
        self.source = source
        self.delimiter = Array(settings.delimiter.utf8)
        self.batch = TriplesBatch(settings: settings)
    }

    func bind(_ parser: XMLPushParser) {
        recordName = parser.name(settings.recordElement)
        labelsName = parser.name(settings.labelsElement)
        keysName = parser.name(settings.keysElement)
        valuesName = parser.name(settings.valuesElement)
    }

    func startElement(_ name: XMLName, parser: XMLPushParser) throws {
        if capturing != nil { return }
        if name == valuesName || name == keysName || name == labelsName {
            if name == valuesName && !inRecord {
                throw InputError("\(settings.valuesElement) element outside a \(settings.recordElement) element",
                                 at: position(parser.startTagPosition))
            }
            capturing = name
            parser.clearText()
            parser.capturesText = true
        } else if name == recordName {
            inRecord = true
            recordPosition = position(parser.startTagPosition)
            recordKeys = nil
            recordValues = nil
        }
    }

    func endElement(_ name: XMLName, parser: XMLPushParser) throws {
        if let list = capturing {
            guard name == list else { return }
            capturing = nil
            parser.capturesText = false
            if name == valuesName {
                let start = batch.bytes.count
                batch.bytes.append(contentsOf: parser.text)
                recordValues = start..<batch.bytes.count
            } else if name == keysName {
                let keys = splitKeys(parser.text)
                let keySet = TriplesBatch.KeySet(keys: keys, mlsIndex: keys.firstIndex(of: "mls_number"))
                if inRecord {
                    recordKeys = keySet
                } else {
                    headerKeys = keySet
                    headerKeySet = nil
                }
            }
        } else if name == recordName && inRecord {
            inRecord = false
            try endRecord()
        }
    }

    func chunkEnded() {
        if batch.entries.count >= Self.batchEntries || batch.bytes.count >= Self.batchBytes {
            submit(inBackground: true)
        }
    }

    func finish(_ parser: XMLPushParser) throws {
        submit(inBackground: false)
    }

    func takeRecords() -> [RawRecord] {
        converter.takeReady()
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

    private func submit(inBackground: Bool) {
        guard !batch.entries.isEmpty else {
            if !inBackground { converter.complete() }
            return
        }
        let full = batch
        batch = full.emptied()
        headerKeySet = nil
        // A record open across the chunk boundary keeps its values text: move it into the new batch.
        if inRecord, let values = recordValues {
            batch.bytes.append(contentsOf: full.bytes[values])
            recordValues = 0..<values.count
        }
        converter.submit(full, count: full.entries.count, inBackground: inBackground)
    }

    private func splitKeys(_ text: [UInt8]) -> [String] {
        DelimitedText.fields(text, text.indices, delimiter: delimiter).map {
            DelimitedText.string(text, DelimitedText.trimmed(text, $0, DelimitedText.isWhitespace))
        }
    }

    private func position(_ place: (line: Int, column: Int)) -> SourcePosition {
        SourcePosition(file: source, line: place.line, column: place.column)
    }
}
