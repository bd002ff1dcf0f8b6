import XMLStream

/// Reads `format: triples`: parallel delimiter-joined `labels` / `keys` / `values` lists.
///
/// Both shapes: lists inside each record (per-record), or `labels`/`keys` once before the records, which then
/// carry only `values` (header-once); keys inside a record win over the header. Labels are optional and only
/// read, never emitted. Keys are trimmed of whitespace; values are kept exactly as decoded (an empty slot is
/// the empty string, a missing value). A values/keys count mismatch gives a `defect` record whose fields pair
/// what they can, with surplus values under `_extra_value_1`, `_extra_value_2`, ... and no field for a key
/// without a value.
final class TriplesHandler: RecordHandler {
    var records: [RawRecord] = []
    private(set) var report = ParseReport()

    private let settings: TriplesSettings
    private let source: String
    private let delimiter: [UInt8]

    private var recordName: XMLName?
    private var labelsName: XMLName?
    private var keysName: XMLName?
    private var valuesName: XMLName?

    /// Keys given once before the records (header-once shape).
    private var headerKeys: [String]?
    /// Where the key `mls_number` sits in `headerKeys`.
    private var headerMLSIndex: Int?

    /// The list element whose text is being captured.
    private var capturing: XMLName?
    private var inRecord = false
    private var recordPosition = SourcePosition(file: "", line: 0, column: 0)
    private var recordKeys: [String]?
    private var recordMLSIndex: Int?
    /// The record's `values` text, held until the record ends (its keys may come after it).
    private var recordValues: [UInt8]?
    private var ordinal = 0

    init(settings: TriplesSettings, source: String) {
        self.settings = settings
        self.source = source
        self.delimiter = Array(settings.delimiter.utf8)
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
            recordMLSIndex = nil
            recordValues = nil
        }
    }

    func endElement(_ name: XMLName, parser: XMLPushParser) throws {
        if let list = capturing {
            guard name == list else { return }
            capturing = nil
            parser.capturesText = false
            if name == valuesName {
                recordValues = parser.text
            } else if name == keysName {
                let keys = splitKeys(parser.text)
                let mlsIndex = keys.firstIndex(of: "mls_number")
                if inRecord {
                    (recordKeys, recordMLSIndex) = (keys, mlsIndex)
                } else {
                    (headerKeys, headerMLSIndex) = (keys, mlsIndex)
                }
            }
        } else if name == recordName && inRecord {
            inRecord = false
            try emitRecord()
        }
    }

    func finish(_ parser: XMLPushParser) throws {}

    // MARK: - Records

    private func emitRecord() throws {
        defer {
            recordValues = nil
            ordinal += 1
        }
        guard let values = recordValues else {
            records.append(RawRecord(fields: [], position: recordPosition, ordinal: ordinal,
                                     defect: "\(settings.recordElement) has no \(settings.valuesElement) element"))
            return
        }
        guard let keys = recordKeys ?? headerKeys else {
            throw InputError("\(settings.recordElement) has \(settings.valuesElement) but no \(settings.keysElement) "
                             + "(neither inside it nor before it)", at: recordPosition)
        }
        let mlsIndex = recordKeys != nil ? recordMLSIndex : headerMLSIndex
        var fields: [RawField] = []
        fields.reserveCapacity(keys.count)
        var count = 0
        DelimitedText.forEachField(values, values.indices, delimiter: delimiter) { range in
            let value = DelimitedText.string(values, range)
            if count < keys.count {
                fields.append(RawField(keys[count], value))
            } else {
                fields.append(RawField("_extra_value_\(count - keys.count + 1)", value))
            }
            count += 1
        }
        var defect: String?
        if count != keys.count {
            var reason = "\(settings.valuesElement) has \(count) fields but \(settings.keysElement) has \(keys.count)"
            if let mlsIndex, mlsIndex < fields.count {
                let number = DelimitedText.trimmed(fields[mlsIndex].value)
                if !number.isEmpty { reason += " (MLS \(number))" }
            }
            defect = reason
        }
        records.append(RawRecord(fields: fields, position: recordPosition, ordinal: ordinal, defect: defect))
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
