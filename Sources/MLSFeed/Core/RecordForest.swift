import Foundation

/// The records of one batch of a structured feed (nested XML, JSON) as compact trees over two byte buffers.
///
/// Built on the parser's thread (`RecordForestBuilder`), then read only: by the extractor that turns each tree into
/// a raw record, and later by a reject that keeps its record whole. Names are interned ids into `names`; text and
/// attribute values are byte ranges, so a record of fifty elements costs fifty small structs, not fifty Strings.
final class RecordForest: @unchecked Sendable {
    /// What a node holds: an XML element, or a JSON value (an object or array element is an element too).
    enum Kind: UInt8 {
        case element
        case string, number, boolean, null
        /// An empty JSON array (a named element with no items).
        case emptyArray
        /// A JSON object with no members.
        case emptyObject
    }

    /// 36 bytes: a 1M-listing syndication feed holds about 90 a record, and the forests of the records in flight
    /// are most of a run's memory (no parent or last child: only the builder needs them, while a record is open).
    struct Node {
        var name: Int32
        /// The namespace URI's interned id, or -1.
        var namespace: Int32 = -1
        var firstChild: Int32 = -1
        var nextSibling: Int32 = -1
        /// All text inside the element, children's included: `text[textStart..<textEnd]`. The element's own
        /// (direct) text is what its children's spans leave out.
        var textStart: Int32
        var textEnd: Int32
        var attributeStart: Int32
        var attributeCount: Int32 = 0
        var kind: Kind = .element
        /// A JSON array's item (so that one item is still written as an array).
        var inArray = false
    }

    struct Attribute {
        var name: Int32
        var valueStart: Int32
        var valueEnd: Int32
    }

    /// Name strings by interned id.
    let names: [String]
    /// Each name JSON-escaped (no quotes), for writing keys: name `n` is `keyBytes[keyEnds[n - 1]..<keyEnds[n]]`
    /// (from 0 for the first).
    let keyBytes: [UInt8]
    let keyEnds: [Int32]
    /// Views of `buffers`, valid as long as the forest (which owns them until it dies).
    let nodes: UnsafeBufferPointer<Node>
    let attributes: UnsafeBufferPointer<Attribute>
    let text: UnsafeBufferPointer<UInt8>
    let attributeBytes: UnsafeBufferPointer<UInt8>

    /// The memory behind the views, given to `spares` (or freed) in `deinit`; nil only then.
    private var buffers: Buffers?
    /// Capacity of the text buffer (how much a batch built in this forest's buffers could hold without growing).
    let textCapacity: Int
    /// Where the buffers go when the last record of the batch lets go of the forest (nil: freed).
    private let spares: Spares?

    /// The forest over `buffers`, which it owns from now on (no builder may add to them any more).
    init(names: [String], buffers: consuming Buffers, keys: Keys? = nil, spares: Spares? = nil) {
        var keys = keys ?? Keys()
        keys.add(names)
        self.names = names
        keyBytes = keys.bytes
        keyEnds = keys.ends
        nodes = buffers.nodes.elements
        attributes = buffers.attributes.elements
        text = buffers.text.elements
        attributeBytes = buffers.attributeBytes.elements
        textCapacity = buffers.text.capacity
        self.buffers = consume buffers
        self.spares = spares
    }

    deinit {
        // Nothing reads the views once the forest is going: the buffers may serve the builder's next batch.
        if let buffers = buffers.take(), let spares { spares.give(buffers) }
    }

    /// Names JSON-escaped once, not at every key written; names only grow, so a builder keeps one and adds to it.
    struct Keys {
        private(set) var bytes: [UInt8] = []
        private(set) var ends: [Int32] = []

        /// Adds the names of `names` past the ones it has.
        mutating func add(_ names: [String]) {
            while ends.count < names.count {
                JSONText.appendUnquoted(names[ends.count], to: &bytes)
                ends.append(Int32(bytes.count))
            }
        }
    }

    /// The four buffers of a forest, in memory whoever holds them owns: a builder while it fills them, then the
    /// forest made of them, then `Spares` until a builder takes them again. Non-copyable: whoever holds them last
    /// frees them (each buffer's `deinit`).
    struct Buffers: ~Copyable, @unchecked Sendable {
        // @unchecked: filled by one builder (one thread) until a forest takes them, then only read.
        var nodes: GrowableBuffer<Node>
        var attributes: GrowableBuffer<Attribute>
        var text: GrowableBuffer<UInt8>
        var attributeBytes: GrowableBuffer<UInt8>

        /// Empty buffers with room for `nodes`, `attributes`, `text` and `attributeBytes` elements.
        init(nodes: Int = 0, attributes: Int = 0, text: Int = 0, attributeBytes: Int = 0) {
            self.nodes = GrowableBuffer(capacity: nodes)
            self.attributes = GrowableBuffer(capacity: attributes)
            self.text = GrowableBuffer(capacity: text)
            self.attributeBytes = GrowableBuffer(capacity: attributeBytes)
        }

        /// Forgets what the buffers hold, keeping their memory.
        mutating func removeAll() {
            nodes.removeAll()
            attributes.removeAll()
            text.removeAll()
            attributeBytes.removeAll()
        }
    }

    /// Buffers of forests no record holds any more, kept for the builder's next batches.
    ///
    /// A batch's buffers are a megabyte or two: above malloc's mmap threshold, so each new batch was mapped afresh
    /// and faulted in page by page (1.5 million page faults in a 1M syndication first load). A batch's forest dies
    /// on whichever stage's thread drops its last record, hence the lock.
    final class Spares: @unchecked Sendable {
        // @unchecked: `kept` is only touched while holding `lock`.
        private let lock = NSLock()
        /// The one set that waits (the builder takes one a batch; more would only hold memory).
        private var kept: Buffers?

        /// Keeps `buffers` unless a set waits already (then they are freed).
        func give(_ buffers: consuming Buffers) {
            lock.lock()
            defer { lock.unlock() }
            if kept == nil { kept = consume buffers }
        }

        /// A set of buffers, emptied, or nil when none waits; the caller owns them.
        func take() -> Buffers? {
            lock.lock()
            guard var buffers = kept.take() else {
                lock.unlock()
                return nil
            }
            lock.unlock()
            buffers.removeAll()
            return buffers
        }
    }

    /// The children of `node`, in document order.
    func children(of node: Int32) -> ChildSequence {
        ChildSequence(forest: self, cursor: nodes[Int(node)].firstChild)
    }

    struct ChildSequence: Sequence, IteratorProtocol {
        let forest: RecordForest
        var cursor: Int32

        mutating func next() -> Int32? {
            guard cursor >= 0 else { return nil }
            defer { cursor = forest.nodes[Int(cursor)].nextSibling }
            return cursor
        }
    }

    /// The byte ranges of `node`'s own text (what its children's text spans leave out), in order.
    func directText(of node: Int32) -> [Range<Int>] {
        let element = nodes[Int(node)]
        var ranges: [Range<Int>] = []
        var cursor = Int(element.textStart)
        for child in children(of: node) {
            let start = Int(nodes[Int(child)].textStart)
            if start > cursor { ranges.append(cursor..<start) }
            cursor = max(cursor, Int(nodes[Int(child)].textEnd))
        }
        if Int(element.textEnd) > cursor { ranges.append(cursor..<Int(element.textEnd)) }
        return ranges
    }

    /// The value a path reading `node` gets: its own text (for a leaf, all of it), untrimmed.
    func value(of node: Int32) -> String {
        let element = nodes[Int(node)]
        if element.firstChild < 0 {
            return string(Int(element.textStart)..<Int(element.textEnd))
        }
        return directText(of: node).map(string).joined()
    }

    func string(_ range: Range<Int>) -> String {
        range.isEmpty ? "" : String(decoding: UnsafeBufferPointer(rebasing: text[range]), as: UTF8.self)
    }

    func attributeValue(_ attribute: Attribute) -> String {
        let range = Int(attribute.valueStart)..<Int(attribute.valueEnd)
        return range.isEmpty ? "" : String(decoding: UnsafeBufferPointer(rebasing: attributeBytes[range]),
                                           as: UTF8.self)
    }

    /// The index in `attributes` of `node`'s attribute named `name`, if it has one.
    func attribute(_ name: Int32, of node: Int32) -> Int32? {
        let element = nodes[Int(node)]
        for index in element.attributeStart..<(element.attributeStart + element.attributeCount)
        where attributes[Int(index)].name == name {
            return index
        }
        return nil
    }
}
