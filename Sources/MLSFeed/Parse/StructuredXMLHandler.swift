import Foundation
import XMLStream

/// Reads `format: xml`: records that are one repeated element (`format.record`, a name or a path), flat or nested,
/// with namespaces, attributes and repeated children; the mapping's paths pick the values.
///
/// The parser thread builds each record as a compact tree (`RecordForest`) and hands batches of them to a worker
/// (`BatchConverter`), which extracts the fields, the `embedded_agents` children and the `extra` JSON
/// (`RecordExtractor`). A record larger than `format.max_record_bytes` is not built: it becomes a defect record
/// (a reject naming its position) and the document goes on, so memory stays flat whatever a record holds.
///
/// Driven by one thread (the parser's); its per-event state skips the runtime exclusivity check.
final class StructuredXMLHandler: RecordHandler {
    /// Records, or buffered bytes, at which a batch goes to the worker thread.
    static let batchRecords = 256
    static let batchBytes = 1 << 20

    private(set) var report = ParseReport()

    private let settings: PlainXMLSettings
    /// A record bigger than this is a defect (`format.max_record_bytes`).
    private let maxRecordBytes: Int
    private let mapping: Mapping
    private let source: String
    private let statistics = Statistics()
    private var converter: BatchConverter<Batch>?

    /// The record path's steps as interned names, outermost first.
    private var recordSteps: [Int32] = []
    /// The element names the parser has interned so far, by id (shared with every batch).
    private var names: [String] = []
    /// Weak: the parser owns its delegate, this handler (a strong reference would keep both alive for ever).
    private weak var parser: XMLPushParser?

    /// Names of the open elements outside any record, outermost first.
    @exclusivity(unchecked) private var outside: [Int32] = []
    /// Whether a mapping path reads the elements around a record (`../name()`): their attributes are then kept,
    /// parallel to `outside`.
    private var readsAncestors = false
    @exclusivity(unchecked) private var outsideAttributes: [[RecordAncestor.Attribute]] = []
    /// Counts the changes of the elements around records (an element opened or closed outside a record), so a
    /// record takes the last snapshot of its ancestors while they stay the same.
    @exclusivity(unchecked) private var outsideGeneration = 0
    /// The ancestors of the pending records, one snapshot per change, and the generation of the last one.
    @exclusivity(unchecked) private var ancestry: [[RecordAncestor]] = []
    @exclusivity(unchecked) private var ancestryGeneration = -1
    private let builder = RecordForestBuilder()
    /// The open record's root (in `builder`), its start position, its depth in the document and the bytes the
    /// builder held before it.
    @exclusivity(unchecked) private var recordRoot: Int32?
    @exclusivity(unchecked) private var recordPosition = SourcePosition(file: "", line: 0, column: 0)
    @exclusivity(unchecked) private var recordDepth = 0
    @exclusivity(unchecked) private var recordStartBytes = 0
    /// Set while an oversized record is skipped: the depth of its element.
    @exclusivity(unchecked) private var skipping: Int?
    @exclusivity(unchecked) private var depth = 0
    @exclusivity(unchecked) private var pending: [Batch.Entry] = []
    @exclusivity(unchecked) private var ordinal = 0
    @exclusivity(unchecked) private var sawRoot = false

    /// A batch of built records: the forest and where each record starts.
    struct Batch: Sendable {
        struct Entry: Sendable {
            /// The root node, or nil for an oversized record (a defect).
            var root: Int32?
            var position: SourcePosition
            var ordinal: Int
            /// Why a record that was built is still a defect (its fields are read all the same and kept).
            var defect: String?
            /// The record's ancestors in `ancestry` (-1: none kept).
            var ancestors: Int32 = -1
        }

        var forest: RecordForest
        var entries: [Entry]
        /// The elements around the records, outermost first, for paths that leave a record (`../name()`).
        var ancestry: [[RecordAncestor]] = []
    }

    /// Path statistics added up by the worker threads.
    final class Statistics: @unchecked Sendable {
        private let lock = NSLock()
        private var counts: RecordExtractor.Counts?

        func add(_ counts: RecordExtractor.Counts) {
            lock.withLock {
                if self.counts == nil { self.counts = counts } else { self.counts!.add(counts) }
            }
        }

        var total: RecordExtractor.Counts? { lock.withLock { counts } }
    }

    /// A handler of `source` by `mapping`, its records bounded by `maxRecordBytes`.
    init(settings: PlainXMLSettings, mapping: Mapping, source: String,
         maxRecordBytes: Int = ParseSettings.defaultMaxRecordBytes) {
        self.settings = settings
        self.maxRecordBytes = maxRecordBytes
        self.mapping = mapping
        self.source = source
    }

    func bind(_ parser: XMLPushParser) {
        self.parser = parser
        let intern: (String) -> Int32 = { Int32(parser.name($0).id) }
        recordSteps = (try? RecordPath(parsing: settings.recordElement))?.steps.map {
            $0.name == "*" ? -1 : intern($0.name)
        } ?? [intern(settings.recordElement)]
        // The mapping's paths and prefixes were checked when the pipeline was read.
        let plan = (try? PathPlan(mapping: mapping, namespaces: settings.namespaces, multiValue: settings.multiValue,
                                  intern: intern)) ?? PathPlan()
        converter = Batch.converter(plan: plan, maxRecordBytes: maxRecordBytes, statistics: statistics)
        pathTexts = plan.paths.map(\.text)
        readsAncestors = plan.readsAncestors
    }

    private var pathTexts: [String] = []

    func startElement(_ name: XMLName, parser: XMLPushParser) throws {
        try startElement(id: name.id, parser: parser)
    }

    func endElement(_ name: XMLName, parser: XMLPushParser) throws {
        try endElement(id: name.id, parser: parser)
    }

    /// A start tag, by its name's id: no `XMLName` (and no retain of its string) per element.
    func startElement(id nameID: Int, parser: XMLPushParser) throws {
        depth += 1
        if !sawRoot {
            sawRoot = true
            report.generated = parser.attribute("generated")
            if parser.internedName(nameID) == "RETS" { try readReply(parser) }
        }
        if skipping != nil { return }
        let id = Int32(nameID)
        if recordRoot == nil && outside.count == 1 && names(outside[0]) == "RETS" {
            // A RETS reply's trailer, as COMPACT replies have it (STANDARD-XML, CREA DDF).
            switch parser.internedName(nameID) {
            case "COUNT":
                if let records = parser.attribute("Records") {
                    let (line, column) = parser.startTagPosition
                    DeclaredCount.read(records, written: { "COUNT Records=\(quoted($0))" },
                                       at: SourcePosition(file: source, line: line, column: column), into: &report)
                }
            case "MAXROWS":
                report.maxRows = true
                report.warnings.append("MAXROWS: the server stopped at its row limit; the result may be incomplete")
            case "RETS-STATUS":
                try readReply(parser)
            default:
                break
            }
        }
        if recordRoot != nil {
            builder.open(name: id, namespace: Int32(parser.namespaceID))
            builder.addAttributes(of: parser)
            checkSize(parser, recordStillOpen: true)
            return
        }
        outside.append(id)
        if readsAncestors { outsideAttributes.append(Self.attributes(of: parser)) }
        guard isRecord() else {
            outsideGeneration &+= 1
            return
        }
        recordAncestors = readsAncestors ? ancestorSnapshot() : -1
        let (line, column) = parser.startTagPosition
        recordPosition = SourcePosition(file: source, line: line, column: column)
        recordStartBytes = builder.byteCount
        recordDepth = depth
        parser.streamsText = true
        recordRoot = builder.open(name: id, namespace: Int32(parser.namespaceID))
        builder.addAttributes(of: parser)
        checkSize(parser, recordStillOpen: true)
    }

    /// An end tag, by its name's id.
    func endElement(id nameID: Int, parser: XMLPushParser) throws {
        defer { depth -= 1 }
        if let skipped = skipping {
            if depth == skipped {
                skipping = nil
                popOutside(record: true)
            }
            return
        }
        guard let root = recordRoot else {
            if !outside.isEmpty { popOutside(record: false) }
            return
        }
        let closed = builder.close()
        checkSize(parser, recordStillOpen: closed != root)
        if recordRoot == nil {
            if closed == root { popOutside(record: true) }
            return
        }
        if closed == root {
            recordRoot = nil
            parser.streamsText = false
            popOutside(record: true)
            pending.append(Batch.Entry(root: root, position: recordPosition, ordinal: ordinal,
                                       ancestors: recordAncestors))
            ordinal += 1
            // Here, between records, and not at the end of a chunk: a chunk nearly always ends inside a record, so
            // waiting for one that ends between records would hold the whole document.
            submitIfFull()
        }
    }

    func chunkEnded(_ parser: XMLPushParser) {
        submitIfFull()
    }

    /// Hands the pending records to the worker when a batch is full and no record is open.
    private func submitIfFull() {
        if recordRoot == nil && skipping == nil
            && (pending.count >= Self.batchRecords || builder.byteCount >= Self.batchBytes) {
            submit(inBackground: true)
        }
    }

    func finish(_ parser: XMLPushParser) throws {
        submit(inBackground: false)
        converter?.complete()
        if ordinal == 0 { report.noRecords = "no <\(settings.recordElement)> elements (format.record)" }
        if let counts = statistics.total {
            for (index, text) in pathTexts.enumerated() {
                report.pathMatches[text] = PathMatches(records: counts.matched[index], repeated: counts.repeated[index])
            }
        } else {
            for text in pathTexts { report.pathMatches[text] = PathMatches() }
        }
    }

    func takeRecords() -> [RawRecord] {
        converter?.takeReady() ?? []
    }

    /// The text and attribute values of the records built since the last batch.
    var heldBytes: Int { builder.byteCount }

    // MARK: - Records

    /// The name `id` stands for.
    private func names(_ id: Int32) -> String {
        parser?.internedName(Int(id)) ?? ""
    }

    /// A RETS reply code: 0 and 20201 (no records) are fine, 20208 (truncated) makes the dump incomplete, any other
    /// fails the run with the reply text.
    private func readReply(_ parser: XMLPushParser) throws {
        let code = parser.attribute("ReplyCode").map(DelimitedText.trimmed) ?? "0"
        let text = parser.attribute("ReplyText").map(DelimitedText.trimmed) ?? ""
        switch Int(code) {
        case 0, 20201:
            return
        case 20208:
            report.truncated = true
            report.warnings.append("RETS reply code 20208 (result truncated at the server's row limit): \(text)")
        default:
            let (line, column) = parser.startTagPosition
            throw InputError("RETS reply code \(code): \(text.isEmpty ? "(no ReplyText)" : text)",
                             at: SourcePosition(file: source, line: line, column: column))
        }
    }

    /// The open record's ancestors in `ancestry` (-1: none kept).
    @exclusivity(unchecked) private var recordAncestors: Int32 = -1

    /// Closes the innermost element outside a record (`record`: the record's own element, whose opening and
    /// closing change nothing around the records).
    private func popOutside(record: Bool) {
        outside.removeLast()
        guard readsAncestors else { return }
        outsideAttributes.removeLast()
        if !record { outsideGeneration &+= 1 }
    }

    /// The index in `ancestry` of the elements around the record just opened (the last of `outside` is the record):
    /// a new snapshot when they changed since the last one.
    private func ancestorSnapshot() -> Int32 {
        if ancestryGeneration != outsideGeneration || ancestry.isEmpty {
            let count = outside.count - 1
            ancestry.append((0..<count).map { RecordAncestor(name: outside[$0], attributes: outsideAttributes[$0]) })
            ancestryGeneration = outsideGeneration
        }
        return Int32(ancestry.count - 1)
    }

    /// The attributes of the start tag the parser is reporting.
    private static func attributes(of parser: XMLPushParser) -> [RecordAncestor.Attribute] {
        guard parser.attributeCount > 0 else { return [] }
        var attributes: [RecordAncestor.Attribute] = []
        parser.forEachAttribute { name, value in
            let text = value.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
            attributes.append(RecordAncestor.Attribute(name: Int32(name), value: text))
        }
        return attributes
    }

    /// Whether the element just opened (the last of `outside`) is a record: its ancestors end with the record path.
    private func isRecord() -> Bool {
        guard outside.count >= recordSteps.count else { return false }
        return zip(outside.suffix(recordSteps.count), recordSteps).allSatisfy { $1 < 0 || $0 == $1 }
    }

    /// Text of the open record's innermost open element: the record is dropped as soon as it grows too large, not
    /// at the element's end (a text comes in pieces, so one long text never gathers whole).
    func characters(_ text: Span<UInt8>, parser: XMLPushParser) {
        builder.append(span: text)
        if builder.byteCount - recordStartBytes > maxRecordBytes { checkSize(parser, recordStillOpen: true) }
    }

    /// Abandons the open record when it grew past `max_record_bytes`: it becomes a defect record, and the rest of
    /// its element (when `recordStillOpen`) is skipped.
    private func checkSize(_ parser: XMLPushParser, recordStillOpen: Bool) {
        guard let root = recordRoot, builder.byteCount - recordStartBytes > maxRecordBytes else { return }
        builder.discard(from: root)
        recordRoot = nil
        parser.streamsText = false
        pending.append(Batch.Entry(root: nil, position: recordPosition, ordinal: ordinal))
        ordinal += 1
        if recordStillOpen { skipping = recordDepth }
    }

    private func submit(inBackground: Bool) {
        guard !pending.isEmpty, let converter else { return }
        syncNames()
        let batch = Batch(forest: builder.take(names: names), entries: pending, ancestry: ancestry)
        pending = []
        ancestry = []
        converter.submit(batch, count: batch.entries.count, inBackground: inBackground)
    }

    /// Brings the name table up to the parser's interned names (names only grow).
    private func syncNames() {
        guard let parser else { return }
        while names.count < parser.internedCount { names.append(parser.internedName(names.count)) }
    }
}

extension StructuredXMLHandler {
    /// The defect of a record larger than `format.max_record_bytes` (`limit`), in every format.
    static func tooLarge(_ limit: Int) -> String {
        "record is larger than format.max_record_bytes (\(limit) bytes)"
    }
}

extension StructuredXMLHandler.Batch {
    /// The conversion of a batch's record trees into raw records by `plan` (structured XML and RESO JSON alike): a
    /// record over `maxRecordBytes` becomes a defect; path statistics go to `statistics`.
    static func converter(plan: PathPlan, maxRecordBytes limit: Int,
                          statistics: StructuredXMLHandler.Statistics) -> BatchConverter<Self> {
        let extractor = RecordExtractor(plan: plan)
        let pathCount = plan.paths.count
        return BatchConverter { batch, range in
            var counts = RecordExtractor.Counts(paths: pathCount)
            var records: [RawRecord] = []
            records.reserveCapacity(range.count)
            for entry in batch.entries[range] {
                if let root = entry.root {
                    let ancestors = entry.ancestors >= 0 ? batch.ancestry[Int(entry.ancestors)] : []
                    var record = extractor.extract(batch.forest, root: root, position: entry.position,
                                                   ordinal: entry.ordinal, ancestors: ancestors, counts: &counts)
                    if let defect = entry.defect { record.defect = defect }
                    records.append(record)
                } else {
                    records.append(RawRecord(fields: [], position: entry.position, ordinal: entry.ordinal,
                                             defect: StructuredXMLHandler.tooLarge(limit)))
                }
            }
            statistics.add(counts)
            return records
        }
    }
}
