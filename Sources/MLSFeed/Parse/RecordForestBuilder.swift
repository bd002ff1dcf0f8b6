import JSONStream
import XMLStream

/// Builds a `RecordForest` from element events on the parser's thread: open, text, attributes, close.
///
/// A class over `GrowableBuffer`s (its forest's buffers and the open elements' stacks): every event appends to
/// memory it owns, with no array's uniqueness or capacity bookkeeping (about a third of the parser thread's own
/// instructions in a syndication feed went to those). Driven by one thread; a forest it hands out is read only.
final class RecordForestBuilder {
    /// The buffers of the forest being built (this builder's until a forest takes them).
    @exclusivity(unchecked) private var buffers = RecordForest.Buffers()
    /// The open elements, innermost last, and the last child of each so far (-1: none yet).
    @exclusivity(unchecked) private var openNodes = GrowableBuffer<Int32>()
    @exclusivity(unchecked) private var openLastChild = GrowableBuffer<Int32>()
    /// Buffers of this builder's forests that no record holds any more.
    private let spares = RecordForest.Spares()
    /// The names of the forests so far, escaped as JSON keys.
    private var keys = RecordForest.Keys()

    /// The nodes built so far (valid until the next event).
    var nodes: UnsafeBufferPointer<RecordForest.Node> { buffers.nodes.elements }

    /// Whether no element is open (between records).
    var nothingOpen: Bool { openNodes.isEmpty }

    /// The innermost open element, if any.
    var innermost: Int32? { openNodes.last }

    /// Bytes held so far (text and attribute values), for sizing batches and bounding records.
    var byteCount: Int { buffers.text.count + buffers.attributeBytes.count }

    /// Opens an element (a record's root when nothing is open) and returns its index.
    @discardableResult
    func open(name: Int32, namespace: Int32 = -1, kind: RecordForest.Kind = .element,
              inArray: Bool = false) -> Int32 {
        let index = Int32(buffers.nodes.count)
        let textCount = Int32(buffers.text.count)
        buffers.nodes.append(RecordForest.Node(name: name, namespace: namespace, textStart: textCount,
                                               textEnd: textCount, attributeStart: Int32(buffers.attributes.count),
                                               kind: kind, inArray: inArray))
        if let parent = openNodes.last {
            let depth = openLastChild.count - 1
            let last = openLastChild[depth]
            if last >= 0 {
                buffers.nodes[Int(last)].nextSibling = index
            } else {
                buffers.nodes[Int(parent)].firstChild = index
            }
            openLastChild[depth] = index
        }
        openNodes.append(index)
        openLastChild.append(-1)
        return index
    }

    /// Appends a borrowed span of text to the open element.
    func append(span: Span<UInt8>) {
        span.withUnsafeBufferPointer { append($0) }
    }

    /// Appends text to the open element.
    func append(text bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Appends `bytes` to the innermost open element's text.
    private func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        buffers.text.append(contentsOf: bytes)
    }

    /// Adds an attribute to the element just opened (before its first child or text).
    func addAttribute(name: Int32, value: [UInt8]) {
        let start = Int32(buffers.attributeBytes.count)
        value.withUnsafeBufferPointer { buffers.attributeBytes.append(contentsOf: $0) }
        buffers.attributes.append(RecordForest.Attribute(name: name, valueStart: start,
                                                         valueEnd: Int32(buffers.attributeBytes.count)))
        if let current = openNodes.last { buffers.nodes[Int(current)].attributeCount += 1 }
    }

    /// Adds the attributes of the start tag `parser` is reporting to the element just opened.
    func addAttributes(of parser: XMLPushParser) {
        guard parser.attributeCount > 0 else { return }
        var added: Int32 = 0
        parser.forEachAttribute { name, value in
            let start = Int32(buffers.attributeBytes.count)
            value.withUnsafeBufferPointer { buffers.attributeBytes.append(contentsOf: $0) }
            buffers.attributes.append(RecordForest.Attribute(name: Int32(name), valueStart: start,
                                                             valueEnd: Int32(buffers.attributeBytes.count)))
            added += 1
        }
        if let current = openNodes.last { buffers.nodes[Int(current)].attributeCount += added }
    }

    /// Closes the innermost open element; returns it.
    @discardableResult
    func close() -> Int32 {
        let index = openNodes.removeLast()
        openLastChild.removeLast()
        buffers.nodes[Int(index)].textEnd = Int32(buffers.text.count)
        return index
    }

    /// Changes what a node holds (an element found to be an empty JSON object).
    func setKind(_ kind: RecordForest.Kind, of node: Int32) {
        buffers.nodes[Int(node)].kind = kind
    }

    /// Forgets a record being built (from its root `root` on), e.g. one that grew past the size limit.
    func discard(from root: Int32) {
        let node = buffers.nodes[Int(root)]
        buffers.nodes.truncate(to: Int(root))
        buffers.attributes.truncate(to: Int(node.attributeStart))
        buffers.text.truncate(to: Int(node.textStart))
        openNodes.removeAll()
        openLastChild.removeAll()
        buffers.attributeBytes.truncate(to: Int(buffers.attributes.last?.valueEnd ?? 0))
    }

    /// The forest built so far (no element may be open), with `names`; the builder starts empty again, in the
    /// buffers of a spent forest when one is back (`RecordForest.Spares`), else in new ones sized like these.
    func take(names: [String]) -> RecordForest {
        precondition(openNodes.isEmpty, "a record is still open")
        keys.add(names)
        var full = spares.take() ?? RecordForest.Buffers(nodes: buffers.nodes.count,
                                                         attributes: buffers.attributes.count,
                                                         text: buffers.text.count,
                                                         attributeBytes: buffers.attributeBytes.count)
        swap(&full, &buffers)
        return RecordForest(names: names, buffers: full, keys: keys, spares: spares)
    }
}
