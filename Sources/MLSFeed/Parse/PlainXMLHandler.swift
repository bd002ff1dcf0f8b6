import XMLStream

/// Reads `format: xml`: one repeated record element whose fields are its attributes and its direct children.
///
/// Fields come in document order: the record's attributes first, then one field per direct child element,
/// keyed by the child's name, valued by all the text inside it (entities and CDATA decoded, not trimmed).
/// A repeated child gives a repeated key (a multi-value field). The children's own attributes are not read.
final class PlainXMLHandler: RecordHandler {
    private var records: [RawRecord] = []
    private(set) var report = ParseReport()

    private let settings: PlainXMLSettings
    private let source: String
    private var recordName: XMLName?

    private var depth = 0
    /// Depth of the open record element, if one is open.
    private var recordDepth: Int?
    private var fields: [RawField] = []
    private var recordPosition = SourcePosition(file: "", line: 0, column: 0)
    private var ordinal = 0

    init(settings: PlainXMLSettings, source: String) {
        self.settings = settings
        self.source = source
    }

    func takeRecords() -> [RawRecord] {
        let taken = records
        records = []
        return taken
    }

    func bind(_ parser: XMLPushParser) {
        recordName = parser.name(settings.recordElement)
    }

    func startElement(_ name: XMLName, parser: XMLPushParser) throws {
        depth += 1
        if depth == 1 { report.generated = parser.attribute("generated") }
        if let recordDepth {
            if depth == recordDepth + 1 {
                parser.clearText()
                parser.capturesText = true
            }
        } else if name == recordName {
            recordDepth = depth
            let (line, column) = parser.startTagPosition
            recordPosition = SourcePosition(file: source, line: line, column: column)
            fields = parser.attributes().map { RawField($0.name, $0.value) }
        }
    }

    func finish(_ parser: XMLPushParser) throws {
        if ordinal == 0 { report.noRecords = "no <\(settings.recordElement)> elements (format.record)" }
    }

    func endElement(_ name: XMLName, parser: XMLPushParser) throws {
        defer { depth -= 1 }
        guard let recordDepth else { return }
        if depth == recordDepth + 1 {
            parser.capturesText = false
            fields.append(RawField(name.string, String(decoding: parser.text, as: UTF8.self)))
        } else if depth == recordDepth {
            records.append(RawRecord(fields: fields, position: recordPosition, ordinal: ordinal))
            ordinal += 1
            fields = []
            self.recordDepth = nil
        }
    }
}
