import Foundation
import JSONStream

/// Reads `format: reso-json`: RESO Web API (OData) pages `{"@odata.context": .., "value": [records],
/// "@odata.nextLink": .., "@odata.count": N}`, a bare array of records, or JSON Lines (one record object per line).
///
/// A streaming yajl parse (`JSONStream`) builds each record as a compact tree, JSON types kept (`RecordForest`):
/// an object's members are its children, an array's items children of the array's name. Batches of trees go to a
/// worker that reads the mapping's paths (`RecordExtractor`), as for nested XML. Memory stays flat whatever the page
/// or file size: a record over `format.max_record_bytes` is rejected whole, with its position. A record whose object
/// (or any object inside it) has a key twice is rejected (`duplicate key ListPrice`), its fields kept: which of the
/// two values is meant cannot be known.
final class ResoJSONReader: RecordReader, JSONStreamDelegate {
    private let settings: ResoJSONSettings
    /// A record bigger than this is a defect (`format.max_record_bytes`).
    private let maxRecordBytes: Int
    private let source: String
    private var parser: JSONPushParser?
    private var failure: InputError?
    private(set) var report = ParseReport()

    private let builder = RecordForestBuilder()
    private var names: [String] = []
    private var nameIDs: [[UInt8]: Int32] = [:]
    /// The interned names' bytes back to back (`nameBytes[nameRanges[id]]`), to check a cached key without a hash.
    @exclusivity(unchecked) private var nameBytes: [UInt8] = []
    @exclusivity(unchecked) private var nameRanges: [Range<Int>] = []
    /// A direct-mapped cache of keys by a cheap hash of their bytes: a record's keys repeat in every record.
    @exclusivity(unchecked) private var keyCache = [Int32](repeating: -1, count: 1024)
    private let recordName: Int32
    private let valueKey: Int32
    private let nextLinkKey: Int32
    private let countKey: Int32
    /// The name of a value without a key (an array item at the top level).
    private let emptyKey: Int32
    private let converter: BatchConverter<StructuredXMLHandler.Batch>
    private let statistics = StructuredXMLHandler.Statistics()
    private let pathTexts: [String]

    /// What the parser is inside, outermost first.
    private enum Frame {
        /// The top-level object: a page, or (JSON Lines) a record. `root` is its tree while that is undecided.
        case top(root: Int32?)
        /// An array whose object items are records: the page's `value` or a top-level array.
        case records
        /// An object inside a record (the record itself included).
        case object
        /// An array inside a record, its items named `name`.
        case array(name: Int32, items: Int)
        /// Metadata of a page that is not read (an object or array under an `@odata` key).
        case skipped
    }

    @exclusivity(unchecked) private var frames: [Frame] = []
    /// The key just read (interned), waiting for its value.
    @exclusivity(unchecked) private var key: Int32?
    @exclusivity(unchecked) private var recordRoot: Int32?
    private var recordPosition = SourcePosition(file: "", line: 0, column: 0)
    @exclusivity(unchecked) private var recordStartBytes = 0
    @exclusivity(unchecked) private var oversized = false
    @exclusivity(unchecked) private var pending: [StructuredXMLHandler.Batch.Entry] = []
    @exclusivity(unchecked) private var ordinal = 0
    /// The open record's objects, outermost first: a number each, and its node (see `checkDuplicate`).
    @exclusivity(unchecked) private var openObjects: [(serial: Int, node: Int32)] = []
    @exclusivity(unchecked) private var lastSerial = 0
    /// Per interned name: the number of the object that read it as a key last (0: none).
    @exclusivity(unchecked) private var keySerials: [Int] = []
    /// The first key the open record has twice in one object.
    @exclusivity(unchecked) private var duplicateKey: Int32?

    /// A reader of `source` by `mapping`; `maxRecordBytes` and `maxDepth` as `ParseSettings` has them.
    init(settings: ResoJSONSettings, mapping: Mapping, source: String,
         maxRecordBytes: Int = ParseSettings.defaultMaxRecordBytes, maxDepth: Int = ParseSettings.defaultMaxDepth) {
        self.settings = settings
        self.maxRecordBytes = maxRecordBytes
        self.source = source
        var names: [String] = []
        var ids: [[UInt8]: Int32] = [:]
        let intern: (String) -> Int32 = { name in
            let bytes = Array(name.utf8)
            if let id = ids[bytes] { return id }
            let id = Int32(names.count)
            names.append(name)
            ids[bytes] = id
            return id
        }
        recordName = intern("record")
        valueKey = intern("value")
        nextLinkKey = intern("@odata.nextLink")
        countKey = intern("@odata.count")
        emptyKey = intern("")
        let plan = (try? PathPlan(mapping: mapping, namespaces: [:], multiValue: settings.multiValue,
                                  also: settings.alsoRead, intern: intern)) ?? PathPlan()
        self.names = names
        self.nameIDs = ids
        for name in names {
            let start = nameBytes.count
            nameBytes.append(contentsOf: name.utf8)
            nameRanges.append(start..<nameBytes.count)
        }
        pathTexts = plan.paths.map(\.text)
        converter = StructuredXMLHandler.Batch.converter(plan: plan, maxRecordBytes: maxRecordBytes,
                                                         statistics: statistics)
        do {
            parser = try JSONPushParser(delegate: ReaderDelegate(self), options: JSONStreamOptions(
                allowsMultipleValues: true, maxDepth: maxDepth, maxValueBytes: max(1 << 20, maxRecordBytes)))
        } catch {
            failure = InputError("\(error)", at: SourcePosition(file: source, line: 1, column: 1))
        }
    }

    // MARK: - RecordReader

    func feed(_ chunk: ArraySlice<UInt8>) throws {
        try run { parser in try parser.feed(chunk) }
        if recordRoot == nil && (pending.count >= StructuredXMLHandler.batchRecords
                                 || builder.byteCount >= StructuredXMLHandler.batchBytes) {
            submit(inBackground: true)
        }
    }

    func finish() throws {
        try run { parser in
            if parser.bytesRead == 0 {
                throw InputError("the input is empty (0 bytes): not a JSON document",
                                 at: SourcePosition(file: source, line: 1, column: 1))
            }
            try parser.finish()
        }
        if let root = recordRoot {
            // A top-level object that ended the input without being closed cannot happen (the parser refuses it).
            builder.discard(from: root)
        }
        submit(inBackground: false)
        converter.complete()
        if ordinal == 0 { report.noRecords = "no records (neither a \"value\" array, an array nor record objects)" }
        let counts = statistics.total
        for (index, text) in pathTexts.enumerated() {
            report.pathMatches[text] = PathMatches(records: counts?.matched[index] ?? 0,
                                                   repeated: counts?.repeated[index] ?? 0)
        }
    }

    /// The records built since the last batch (a token yajl gathers across chunks is bounded by the parser's
    /// `maxValueBytes`).
    var heldBytes: Int { builder.byteCount }

    /// Structured records' fields are read by path, never left unsplit: `split` changes nothing.
    func takeRecords(split: Bool) -> [RawRecord] {
        converter.takeReady()
    }

    private func run(_ body: (JSONPushParser) throws -> Void) throws {
        if let failure { throw failure }
        guard let parser else { return }
        do {
            try body(parser)
        } catch let error as JSONStreamError {
            let failure = InputError(error.message, at: SourcePosition(file: source, line: max(1, error.line),
                                                                       column: max(1, error.column)))
            self.failure = failure
            throw failure
        } catch let error as InputError {
            failure = error
            throw error
        }
    }

    // MARK: - JSONStreamDelegate

    func startObject(parser: JSONPushParser) throws {
        switch frames.last {
        case nil:
            // A top-level object: a page or a record; built as a record until a `value` array says otherwise.
            startRecord(parser)
            frames.append(.top(root: recordRoot))
            openObject(recordRoot)
        case .records:
            startRecord(parser)
            frames.append(.object)
            openObject(recordRoot)
        case .top(let root) where root == nil:
            skipValue()
        case .skipped:
            frames.append(.skipped)
        default:
            openChild(kind: .element)
            frames.append(.object)
            openObject(oversized ? nil : builder.innermost)
        }
    }

    func endObject(parser: JSONPushParser) throws {
        let frame = frames.removeLast()
        switch frame {
        case .top, .object:
            openObjects.removeLast()
        default:
            break
        }
        switch frame {
        case .top(let root):
            if root != nil { endRecord() }
        case .object:
            if case .records? = frames.last {
                endRecord()
            } else if !oversized {
                let closed = builder.close()
                if builder.nodes[Int(closed)].firstChild < 0 { builder.setKind(.emptyObject, of: closed) }
                try checkSize()
            }
        default:
            break
        }
    }

    func startArray(parser: JSONPushParser) throws {
        switch frames.last {
        case nil:
            frames.append(.records)
        case .top(let root):
            if let root, key == valueKey, builder.nodes[Int(root)].firstChild < 0 || onlyMetadata(root) {
                // An OData page: its `value` array holds the records; what was built so far was its metadata.
                builder.discard(from: root)
                recordRoot = nil
                duplicateKey = nil
                frames[frames.count - 1] = .top(root: nil)
                key = nil
                frames.append(.records)
            } else if root == nil {
                key = nil
                frames.append(.skipped)
            } else {
                beginArray()
            }
        case .skipped, .records:
            frames.append(.skipped)
        default:
            beginArray()
        }
    }

    func endArray(parser: JSONPushParser) throws {
        let frame = frames.removeLast()
        if case .array(let name, let items) = frame, items == 0, !oversized {
            // An empty array: one item-less element keeps the name (`[]` in `extra`).
            builder.open(name: name, kind: .emptyArray, inArray: true)
            builder.close()
        }
    }

    func key(_ key: Span<UInt8>, parser: JSONPushParser) throws {
        let id = intern(key)
        self.key = id
        if duplicateKey == nil, recordRoot != nil, !oversized { checkDuplicate(id) }
    }

    /// Remembers an object of the open record by a new number (`node`: its element, nil when not built).
    private func openObject(_ node: Int32?) {
        lastSerial += 1
        openObjects.append((lastSerial, node ?? -1))
    }

    /// Notes the open record's first key that its innermost object already has: a name's last reader is that
    /// object (a duplicate), an object before it (none), or one opened after it (and closed since: its children then
    /// tell). One compare a key, no set per object.
    private func checkDuplicate(_ id: Int32) {
        guard let object = openObjects.last, object.node >= 0 else { return }
        if Int(id) >= keySerials.count { keySerials += repeatElement(0, count: names.count - keySerials.count) }
        let last = keySerials[Int(id)]
        keySerials[Int(id)] = object.serial
        if last < object.serial { return }
        if last == object.serial
            || RecordForestChildren(builder: builder, parent: object.node).contains(where: { $0 == id }) {
            duplicateKey = id
        }
    }

    func string(_ value: Span<UInt8>, parser: JSONPushParser) throws {
        if case .top? = frames.last, self.key == countKey {
            // Servers send the count as a number or as a numeric string; both count.
            readCount(value.utf8String, quoted: true, parser: parser)
        }
        if case .top(let root)? = frames.last, root == nil {
            if self.key == nextLinkKey { report.nextLink = value.utf8String }
            self.key = nil
            return
        }
        if case .top? = frames.last, self.key == nextLinkKey {
            report.nextLink = value.utf8String
        }
        if openScalar(.string) {
            builder.append(span: value)
            closeScalar()
        }
    }

    func number(_ text: Span<UInt8>, parser: JSONPushParser) throws {
        if case .top? = frames.last, self.key == countKey {
            readCount(text.utf8String, quoted: false, parser: parser)
        }
        if case .top(let root)? = frames.last, root == nil {
            self.key = nil
            return
        }
        if openScalar(.number) {
            builder.append(span: text)
            closeScalar()
        }
    }

    func boolean(_ value: Bool, parser: JSONPushParser) throws {
        if openScalar(.boolean) {
            builder.append(text: value ? Self.trueBytes : Self.falseBytes)
            closeScalar()
        }
    }

    func null(parser: JSONPushParser) throws {
        if openScalar(.null) { closeScalar() }
    }

    /// Reads a page's `@odata.count` (`quoted`: given as a string) into the report, or a warning naming it.
    private func readCount(_ text: String, quoted: Bool, parser: JSONPushParser) {
        let (line, column) = parser.position
        DeclaredCount.read(text, written: { quoted ? "@odata.count \"\($0)\"" : "@odata.count \($0)" },
                           at: SourcePosition(file: source, line: max(1, line), column: max(1, column)),
                           into: &report)
    }

    // MARK: - Building

    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)

    /// Opens the element of a scalar value (a child of the open object, named by its key, or an item of the open
    /// array); false when the value belongs to no record (a page's metadata, a top-level scalar) or is skipped.
    private func openScalar(_ kind: RecordForest.Kind) -> Bool {
        switch frames.last {
        case .object?, .array?:
            break
        case .top(let root)? where root != nil:
            break
        default:
            key = nil
            return false
        }
        guard !oversized else { return false }
        openChild(kind: kind)
        return true
    }

    private func closeScalar() {
        builder.close()
        try? checkSize()
    }

    /// Opens the element for the value about to be read: named by the pending key, or an array item.
    private func openChild(kind: RecordForest.Kind) {
        guard !oversized else { return }
        if case .array(let name, let items)? = frames.last {
            frames[frames.count - 1] = .array(name: name, items: items + 1)
            builder.open(name: name, kind: kind, inArray: true)
        } else {
            builder.open(name: key ?? emptyKey, kind: kind)
            key = nil
        }
    }

    private func beginArray() {
        if case .array(let name, let items)? = frames.last {
            // An array of arrays: the inner array's items are named like the outer array's.
            frames[frames.count - 1] = .array(name: name, items: items + 1)
            frames.append(.array(name: name, items: 0))
        } else {
            frames.append(.array(name: key ?? emptyKey, items: 0))
            key = nil
        }
    }

    private func skipValue() {
        key = nil
        frames.append(.skipped)
    }

    private func startRecord(_ parser: JSONPushParser) {
        let (line, column) = parser.position
        recordPosition = SourcePosition(file: source, line: max(1, line), column: max(1, column))
        recordStartBytes = builder.byteCount
        oversized = false
        duplicateKey = nil
        recordRoot = builder.open(name: recordName)
        key = nil
    }

    private func endRecord() {
        if !oversized, let root = recordRoot {
            builder.close()
            pending.append(.init(root: root, position: recordPosition, ordinal: ordinal,
                                 defect: duplicateKey.map { "duplicate key \(names[Int($0)])" }))
        } else {
            pending.append(.init(root: nil, position: recordPosition, ordinal: ordinal))
        }
        ordinal += 1
        recordRoot = nil
        oversized = false
        // Between records, not only at the end of a chunk: a chunk nearly always ends inside a record.
        if pending.count >= StructuredXMLHandler.batchRecords || builder.byteCount >= StructuredXMLHandler.batchBytes {
            submit(inBackground: true)
        }
    }

    /// Whether a top-level object holds nothing but `@odata` metadata so far.
    private func onlyMetadata(_ root: Int32) -> Bool {
        RecordForestChildren(builder: builder, parent: root).allSatisfy { names[Int($0)].hasPrefix("@odata") }
    }

    /// Drops the open record's tree once it grows past `max_record_bytes`: it becomes a defect record.
    private func checkSize() throws {
        guard let root = recordRoot, !oversized, builder.byteCount - recordStartBytes > maxRecordBytes
        else { return }
        builder.discard(from: root)
        oversized = true
    }

    /// The id of the name `bytes` spell, interning it if new.
    private func intern(_ bytes: Span<UInt8>) -> Int32 {
        // FNV-1a picks the cache slot; the slot's name is checked byte for byte.
        var hash: UInt32 = 2_166_136_261
        for index in bytes.indices { hash = (hash ^ UInt32(bytes[index])) &* 16_777_619 }
        let slot = Int(hash & UInt32(keyCache.count - 1))
        let cached = keyCache[slot]
        if cached >= 0 {
            let range = nameRanges[Int(cached)]
            if range.count == bytes.count
                && nameBytes.withUnsafeBufferPointer({ stored in
                    bytes.indices.allSatisfy { stored[range.lowerBound + $0] == bytes[$0] }
                }) {
                return cached
            }
        }
        let array = bytes.byteArray
        let id: Int32
        if let known = nameIDs[array] {
            id = known
        } else {
            id = Int32(names.count)
            names.append(String(decoding: array, as: UTF8.self))
            nameIDs[array] = id
            let start = nameBytes.count
            nameBytes.append(contentsOf: array)
            nameRanges.append(start..<nameBytes.count)
        }
        keyCache[slot] = id
        return id
    }

    private func submit(inBackground: Bool) {
        guard !pending.isEmpty, builder.nothingOpen else { return }
        let batch = StructuredXMLHandler.Batch(forest: builder.take(names: names), entries: pending)
        pending = []
        converter.submit(batch, count: batch.entries.count, inBackground: inBackground)
    }
}

/// The parser's delegate for a reader that owns the parser: passes the events on to the reader without owning it
/// (the parser owns its delegate, so the reader as its own delegate would keep both alive for ever).
///
/// `unowned(unsafe)`: the parser calls its delegate only inside the reader's own `feed` and `finish`, so the reader
/// is alive whenever an event arrives, and no reference count is touched per event.
private final class ReaderDelegate: JSONStreamDelegate {
    private unowned(unsafe) let reader: ResoJSONReader

    init(_ reader: ResoJSONReader) {
        self.reader = reader
    }

    func startObject(parser: JSONPushParser) throws { try reader.startObject(parser: parser) }
    func key(_ key: Span<UInt8>, parser: JSONPushParser) throws { try reader.key(key, parser: parser) }
    func endObject(parser: JSONPushParser) throws { try reader.endObject(parser: parser) }
    func startArray(parser: JSONPushParser) throws { try reader.startArray(parser: parser) }
    func endArray(parser: JSONPushParser) throws { try reader.endArray(parser: parser) }
    func string(_ value: Span<UInt8>, parser: JSONPushParser) throws { try reader.string(value, parser: parser) }
    func number(_ text: Span<UInt8>, parser: JSONPushParser) throws { try reader.number(text, parser: parser) }
    func boolean(_ value: Bool, parser: JSONPushParser) throws { try reader.boolean(value, parser: parser) }
    func null(parser: JSONPushParser) throws { try reader.null(parser: parser) }
}

/// The names of a builder's node's children (for the page-or-record decision).
private struct RecordForestChildren: Sequence {
    let builder: RecordForestBuilder
    let parent: Int32

    func makeIterator() -> AnyIterator<Int32> {
        var next = builder.nodes[Int(parent)].firstChild
        return AnyIterator {
            guard next >= 0 else { return nil }
            defer { next = builder.nodes[Int(next)].nextSibling }
            return builder.nodes[Int(next)].name
        }
    }
}
