import XMLStream

/// Reads a RETS METADATA reply: its `METADATA-TABLE`s (one resource and class each) and `METADATA-LOOKUP_TYPE`s,
/// in COMPACT form (`<COLUMNS>` and delimiter-framed `<DATA>` rows) or STANDARD-XML form (one element per field
/// or lookup value, `<Field><SystemName>..</SystemName>..</Field>`, `<LookupType><Value>..</Value>..`).
///
/// Tables and lookups may sit at any depth (a whole-system reply nests them); their `Resource`, `Class` and
/// `Lookup` attributes name them, or, in a nested STANDARD-XML reply, the enclosing `ResourceID`, `ClassName` and
/// `LookupName`. A reply code other than 0 fails with the reply text.
final class RETSMetadataCollector: MetadataCollector {
    /// The table or lookup being read.
    private enum Container {
        case table(MetadataTable)
        case lookup(resource: String, lookup: MetadataLookup)
    }

    /// What captured text becomes when its element ends.
    private enum Capture {
        case context(XMLName), columns, row, value(String)
    }

    private let file: String
    private let names: (rets: XMLName, delimiter: XMLName, table: XMLName, lookupType: XMLName, columns: XMLName,
                        data: XMLName, resource: XMLName, resourceID: XMLName, classElement: XMLName,
                        className: XMLName, lookup: XMLName, lookupName: XMLName)
    private var open: [XMLName] = []
    private var delimiter: [UInt8] = [0x09]
    /// Resource, class and lookup named by enclosing elements of a nested STANDARD-XML reply.
    private var context: [XMLName: String] = [:]
    private var container: Container?
    private var containerDepth = 0
    private var columns: [String]?
    /// Whether the COLUMNS row had a leading and a trailing delimiter: DATA rows are read the same way.
    private var framing = (leading: true, trailing: true)
    /// The STANDARD-XML record being read (element name → text), and where it started.
    private var record: [String: String]?
    private var recordStart = SourcePosition(file: "", line: 0, column: 0)
    private var capture: (kind: Capture, depth: Int, start: SourcePosition)?
    private var format: MetadataDocument.Format?
    private var tables: [MetadataTable] = []
    private var lookups: [String: MetadataLookup] = [:]
    private var items = 0

    init(file: String, parser: XMLPushParser) {
        self.file = file
        names = (parser.name("RETS"), parser.name("DELIMITER"), parser.name("METADATA-TABLE"),
                 parser.name("METADATA-LOOKUP_TYPE"), parser.name("COLUMNS"), parser.name("DATA"),
                 parser.name("Resource"), parser.name("ResourceID"), parser.name("Class"), parser.name("ClassName"),
                 parser.name("Lookup"), parser.name("LookupName"))
    }

    func startElement(_ name: XMLName, parser: XMLPushParser) throws {
        let depth = open.count
        let parent = open.last
        open.append(name)
        if depth == 0 && name == names.rets {
            let code = parser.attribute("ReplyCode") ?? "0"
            guard Int(code) == 0 else {
                let text = parser.attribute("ReplyText").map { ": \($0)" } ?? ""
                throw InputError("the RETS server replied \(code)\(text)", at: position(parser))
            }
            return
        }
        if name == names.delimiter, let value = parser.attribute("value") {
            guard let code = UInt8(DelimitedText.trimmed(value), radix: 16), code != 0 else {
                throw InputError("DELIMITER value \(quoted(value)) is not a hex character code", at: position(parser))
            }
            delimiter = [code]
            return
        }
        guard capture == nil else { return }
        guard container != nil else {
            try startOutside(name, parent: parent, depth: depth, parser: parser)
            return
        }
        if depth == containerDepth + 1 {
            if name == names.columns {
                format = format ?? .retsCompact
                startCapture(.columns, depth: depth, parser: parser)
            } else if name == names.data {
                guard columns != nil else { throw InputError("DATA before COLUMNS", at: position(parser)) }
                startCapture(.row, depth: depth, parser: parser)
            } else {
                format = format ?? .retsStandardXML
                record = [:]
                recordStart = position(parser)
            }
        } else if depth == containerDepth + 2 && record != nil {
            startCapture(.value(name.string), depth: depth, parser: parser)
        }
    }

    func endElement(_ name: XMLName, parser: XMLPushParser) throws {
        open.removeLast()
        let depth = open.count
        if let capture, capture.depth == depth {
            self.capture = nil
            parser.capturesText = false
            let text = String(decoding: parser.text, as: UTF8.self)
            parser.clearText()
            try captured(text, as: capture.kind, at: capture.start)
            return
        }
        guard container != nil else { return }
        if depth == containerDepth + 1, let fields = record {
            record = nil
            try add(fields, at: recordStart)
        } else if depth == containerDepth {
            finishContainer()
        }
    }

    func finish() throws -> MetadataDocument {
        guard !tables.isEmpty || !lookups.isEmpty else {
            throw MetadataError("\(file): no METADATA-TABLE or METADATA-LOOKUP_TYPE in the RETS reply")
        }
        var document = MetadataDocument(file: file, format: format ?? .retsCompact)
        document.tables = tables
        document.lookups = lookups
        return document
    }

    // MARK: - Containers

    private func startOutside(_ name: XMLName, parent: XMLName?, depth: Int, parser: XMLPushParser) throws {
        if name == names.table {
            let resource = try attribute("Resource", or: names.resourceID, of: name, parser)
            var table = MetadataTable(resource: resource,
                                      className: parser.attribute("Class") ?? context[names.className])
            table.provenance = [("Resource", resource), ("Class", table.className),
                                ("Version", parser.attribute("Version")), ("Date", parser.attribute("Date"))]
                .compactMap { key, value in value.map { "\(key)=\($0)" } }.joined(separator: " ")
            enter(.table(table), depth: depth)
        } else if name == names.lookupType {
            let resource = try attribute("Resource", or: names.resourceID, of: name, parser)
            let lookup = try attribute("Lookup", or: names.lookupName, of: name, parser)
            enter(.lookup(resource: resource, lookup: MetadataLookup(name: lookup)), depth: depth)
        } else if (name == names.resourceID && parent == names.resource)
                    || (name == names.className && parent == names.classElement)
                    || (name == names.lookupName && parent == names.lookup) {
            startCapture(.context(name), depth: depth, parser: parser)
        }
    }

    private func enter(_ made: Container, depth: Int) {
        container = made
        containerDepth = depth
        columns = nil
        framing = (true, true)
    }

    private func finishContainer() {
        switch container {
        case .table(let table): tables.append(table)
        case .lookup(let resource, let lookup):
            let key = MetadataDocument.retsLookupKey(resource: resource, lookup: lookup.name)
            lookups[key, default: MetadataLookup(name: lookup.name)].entries += lookup.entries
        case nil: break
        }
        container = nil
    }

    /// Adds one field (a table) or one value (a lookup) from its columns.
    private func add(_ fields: [String: String], at start: SourcePosition) throws {
        items += 1
        guard items <= MetadataReader.maxItems else {
            throw InputError("more than \(MetadataReader.maxItems) fields and lookup values: not a metadata "
                             + "document mlsfeed reads", at: start)
        }
        func value(_ key: String) -> String? {
            fields[key].map(DelimitedText.trimmed).flatMap { $0.isEmpty ? nil : $0 }
        }
        switch container {
        case .table(var table):
            guard let systemName = value("SystemName") else {
                throw InputError("a METADATA-TABLE field without a SystemName", at: start)
            }
            table.fields.append(Self.field(systemName: systemName, value: value, resource: table.resource))
            container = .table(table)
        case .lookup(let resource, var lookup):
            let words = [value("Value"), value("ShortValue"), value("LongValue")].compactMap { $0 }
            guard let canonical = value("LongValue") ?? value("ShortValue") ?? value("Value") else { return }
            lookup.entries.append(MetadataLookup.Entry(canonical: canonical, words: words))
            container = .lookup(resource: resource, lookup: lookup)
        case nil: break
        }
    }

    /// A field from a METADATA-TABLE row: DataType and Interpretation give its kind and lookup.
    private static func field(systemName: String, value: (String) -> String?, resource: String) -> MetadataField {
        let dataType = value("DataType") ?? ""
        let kind: MetadataField.Kind
        switch dataType.lowercased() {
        case "character": kind = .text
        case "int", "small", "tiny", "long": kind = .integer
        case "decimal": kind = .decimal
        case "date": kind = .date
        case "datetime": kind = .timestamp
        case "boolean": kind = .boolean
        default: kind = .other
        }
        var field = MetadataField(name: systemName, standardName: value("StandardName"), displayName: value("LongName"),
                                  kind: kind, typeLabel: dataType.isEmpty ? "?" : dataType)
        let interpretation = (value("Interpretation") ?? "").lowercased()
        if interpretation.hasPrefix("lookup"), let lookupName = value("LookupName") {
            field.lookup = MetadataDocument.retsLookupKey(resource: resource, lookup: lookupName)
            field.lookupName = lookupName
            field.isMultiValued = interpretation != "lookup"
        }
        return field
    }

    // MARK: - Text

    private func startCapture(_ kind: Capture, depth: Int, parser: XMLPushParser) {
        capture = (kind, depth, position(parser))
        parser.clearText()
        parser.capturesText = true
    }

    private func captured(_ text: String, as kind: Capture, at start: SourcePosition) throws {
        switch kind {
        case .context(let name):
            context[name] = DelimitedText.trimmed(text)
        case .value(let name):
            record?[name] = text
        case .columns:
            var names = split(text)
            framing = (names.first == "", names.count > 1 && names.last == "")
            if framing.leading { names.removeFirst() }
            if framing.trailing { names.removeLast() }
            columns = names.map(DelimitedText.trimmed)
        case .row:
            guard let columns else { return }
            var values = split(text)
            if framing.leading && values.count > 1 && values.first == "" { values.removeFirst() }
            if framing.trailing && values.count > columns.count && values.last == "" { values.removeLast() }
            guard values.count == columns.count else {
                throw InputError("DATA has \(values.count) fields, COLUMNS has \(columns.count)", at: start)
            }
            try add(Dictionary(zip(columns, values)) { first, _ in first }, at: start)
        }
    }

    /// A COLUMNS or DATA row split on the delimiter, without the line ends around it.
    private func split(_ text: String) -> [String] {
        let bytes = Array(text.utf8)
        let range = DelimitedText.trimmed(bytes, bytes.indices) { $0 == 0x0A || $0 == 0x0D }
        return DelimitedText.fields(bytes, range, delimiter: delimiter).map { DelimitedText.string(bytes, $0) }
    }

    // MARK: - Helpers

    private func attribute(_ attribute: String, or enclosing: XMLName, of element: XMLName,
                           _ parser: XMLPushParser) throws -> String {
        if let value = parser.attribute(attribute) ?? context[enclosing], !value.isEmpty { return value }
        throw InputError("\(element) without a \(attribute) attribute", at: position(parser))
    }

    private func position(_ parser: XMLPushParser) -> SourcePosition {
        let (line, column) = parser.startTagPosition
        return SourcePosition(file: file, line: line, column: column)
    }
}
