import JSONStream
import XMLStream

/// Builds a `RecordForest` from element events on the parser's thread: open, text, attributes, close.
struct RecordForestBuilder {
    private(set) var nodes: [RecordForest.Node] = []
    private(set) var attributes: [RecordForest.Attribute] = []
    private(set) var text: [UInt8] = []
    private(set) var attributeBytes: [UInt8] = []
    /// The open elements, innermost last, and the last child of each so far (-1: none yet).
    private(set) var open: [Int32] = []
    private var openLastChild: [Int32] = []
    /// Buffers of this builder's forests that no record holds any more.
    private let spares = RecordForest.Spares()
    /// The names of the forests so far, escaped as JSON keys.
    private var keys = RecordForest.Keys()

    /// Bytes held so far (text and attribute values), for sizing batches and bounding records.
    var byteCount: Int { text.count + attributeBytes.count }

    /// Opens an element (a record's root when nothing is open) and returns its index.
    @discardableResult
    mutating func open(name: Int32, namespace: Int32 = -1, kind: RecordForest.Kind = .element,
                       inArray: Bool = false) -> Int32 {
        let index = Int32(nodes.count)
        nodes.append(RecordForest.Node(name: name, namespace: namespace, textStart: Int32(text.count),
                                       textEnd: Int32(text.count), attributeStart: Int32(attributes.count),
                                       kind: kind, inArray: inArray))
        if let parent = open.last {
            let last = openLastChild[openLastChild.count - 1]
            if last >= 0 { nodes[Int(last)].nextSibling = index } else { nodes[Int(parent)].firstChild = index }
            openLastChild[openLastChild.count - 1] = index
        }
        open.append(index)
        openLastChild.append(-1)
        return index
    }

    /// Appends a borrowed span of text to the open element.
    mutating func append(span: Span<UInt8>) {
        text.append(span: span)
    }

    /// Appends text to the open element.
    mutating func append<Bytes: Collection>(text bytes: Bytes) where Bytes.Element == UInt8 {
        text.append(contentsOf: bytes)
    }

    /// Adds an attribute to the element just opened (before its first child or text).
    mutating func addAttribute<Bytes: Collection>(name: Int32, value: Bytes) where Bytes.Element == UInt8 {
        let start = Int32(attributeBytes.count)
        attributeBytes.append(contentsOf: value)
        attributes.append(RecordForest.Attribute(name: name, valueStart: start, valueEnd: Int32(attributeBytes.count)))
        if let current = open.last { nodes[Int(current)].attributeCount += 1 }
    }

    /// Adds the attributes of the start tag `parser` is reporting to the element just opened.
    mutating func addAttributes(of parser: XMLPushParser) {
        var added: Int32 = 0
        parser.appendAttributes(to: &attributeBytes) { name, range in
            attributes.append(RecordForest.Attribute(name: Int32(name), valueStart: Int32(range.lowerBound),
                                                     valueEnd: Int32(range.upperBound)))
            added += 1
        }
        if let current = open.last { nodes[Int(current)].attributeCount += added }
    }

    /// Closes the innermost open element; returns it.
    @discardableResult
    mutating func close() -> Int32 {
        let index = open.removeLast()
        openLastChild.removeLast()
        nodes[Int(index)].textEnd = Int32(text.count)
        return index
    }

    /// Changes what a node holds (an element found to be an empty JSON object).
    mutating func setKind(_ kind: RecordForest.Kind, of node: Int32) {
        nodes[Int(node)].kind = kind
    }

    /// Forgets a record being built (from its root `root` on), e.g. one that grew past the size limit.
    mutating func discard(from root: Int32) {
        let node = nodes[Int(root)]
        nodes.removeSubrange(Int(root)...)
        attributes.removeSubrange(Int(node.attributeStart)...)
        text.removeSubrange(Int(node.textStart)...)
        open.removeAll()
        openLastChild.removeAll()
        if let lastAttribute = attributes.last {
            attributeBytes.removeSubrange(Int(lastAttribute.valueEnd)...)
        } else {
            attributeBytes.removeAll(keepingCapacity: true)
        }
    }

    /// The forest built so far (no element may be open), with `names`; the builder starts empty again, in the
    /// buffers of a spent forest when one is back (`RecordForest.Spares`).
    mutating func take(names: [String]) -> RecordForest {
        precondition(open.isEmpty, "a record is still open")
        keys.add(names)
        let forest = RecordForest(names: names, nodes: nodes, attributes: attributes, text: text,
                                  attributeBytes: attributeBytes, keys: keys, spares: spares)
        if let spare = spares.take() {
            nodes = spare.nodes
            attributes = spare.attributes
            text = spare.text
            attributeBytes = spare.attributeBytes
            return forest
        }
        let capacity = (nodes.count, attributes.count, text.count, attributeBytes.count)
        nodes = []
        nodes.reserveCapacity(capacity.0)
        attributes = []
        attributes.reserveCapacity(capacity.1)
        text = []
        text.reserveCapacity(capacity.2)
        attributeBytes = []
        attributeBytes.reserveCapacity(capacity.3)
        return forest
    }
}
