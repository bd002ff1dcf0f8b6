/// Writes a record tree (or what is left of it once the mapping took its values) as JSON that keeps its shape.
///
/// The convention, also the shape of `extra` and of a structured reject's raw record: an element is an object whose
/// child elements are keys (by local name, in order of first appearance), a repeated child (or a JSON array item,
/// or a name listed in `format.multi_value`) an array, attributes `@name` keys, and its own text `#text` when it
/// has children or attributes besides; an element with only text is that text. Whitespace-only text is dropped.
/// JSON values keep their types. A part that is consumed (read by a mapping path) is left out, and an element
/// left with nothing is left out too.
///
/// One writer per tree: what is left out is marked in flat arrays over the tree's nodes and attributes (a tree's
/// nodes, and their attributes, are contiguous in the forest), and text goes from the forest's bytes to the output
/// without a `String` in between, so writing a record allocates little more than its output.
struct ForestJSON {
    private let forest: RecordForest
    private let nodes: UnsafeBufferPointer<RecordForest.Node>
    private let keyBytes: [UInt8]
    private let keyEnds: [Int32]
    /// Names always written as arrays.
    private let alwaysArrays: Set<Int32>
    /// The tree's root and its first attribute: the origins of `marks` and `skippedAttributes`.
    private let root: Int32
    private let firstAttribute: Int32
    /// Per node of the tree: `skipNode` (left out whole) and `skipText` (its own text left out).
    private var marks: [UInt8]
    /// Per attribute of the tree: left out.
    private var skippedAttributes: [Bool]

    private static let skipNode: UInt8 = 1
    private static let skipText: UInt8 = 2

    /// A writer for the tree rooted at `root`.
    init(forest: RecordForest, root: Int32, alwaysArrays: Set<Int32> = []) {
        self.forest = forest
        nodes = forest.nodes
        keyBytes = forest.keyBytes
        keyEnds = forest.keyEnds
        self.alwaysArrays = alwaysArrays
        self.root = root
        // The tree's last node: the last child of the last child ... (a tree's nodes are contiguous).
        var last = root
        while nodes[Int(last)].firstChild >= 0 {
            last = nodes[Int(last)].firstChild
            while nodes[Int(last)].nextSibling >= 0 { last = nodes[Int(last)].nextSibling }
        }
        marks = Array(repeating: 0, count: Int(last - root) + 1)
        firstAttribute = nodes[Int(root)].attributeStart
        let attributeEnd = nodes[Int(last)].attributeStart + nodes[Int(last)].attributeCount
        skippedAttributes = Array(repeating: false, count: Int(max(0, attributeEnd - firstAttribute)))
    }

    /// Leaves `node` (of the tree) out whole.
    mutating func skip(_ node: Int32) {
        marks[Int(node - root)] |= Self.skipNode
    }

    /// Leaves `node`'s own text out (its attributes and children stay).
    mutating func skipText(of node: Int32) {
        marks[Int(node - root)] |= Self.skipText
    }

    /// Leaves the attribute at `index` of `forest.attributes` out.
    mutating func skip(attribute index: Int32) {
        skippedAttributes[Int(index - firstAttribute)] = true
    }

    /// The tree as a JSON object (`{}` when nothing is left).
    func object() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Int(nodes[Int(root)].textEnd - nodes[Int(root)].textStart) * 2 + 64)
        if !writeMembers(of: root, to: &out, asObject: true) { out = Array("{}".utf8) }
        return out
    }

    private func isSkipped(_ node: Int32) -> Bool { marks[Int(node - root)] & Self.skipNode != 0 }

    private func isTextSkipped(_ node: Int32) -> Bool { marks[Int(node - root)] & Self.skipText != 0 }

    private func isSkipped(attribute index: Int32) -> Bool { skippedAttributes[Int(index - firstAttribute)] }

    /// Writes `node` as a JSON value; false (nothing written) when nothing of it is left.
    private func writeValue(_ node: Int32, to out: inout [UInt8]) -> Bool {
        if isSkipped(node) { return false }
        let element = nodes[Int(node)]
        switch element.kind {
        case .number, .boolean:
            if isTextSkipped(node) { return false }
            let range = Int(element.textStart)..<Int(element.textEnd)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: forest.text[range]))
            return true
        case .null:
            if isTextSkipped(node) { return false }
            out.append(contentsOf: "null".utf8)
            return true
        case .string:
            if isTextSkipped(node) { return false }
            appendString(Int(element.textStart)..<Int(element.textEnd), to: &out)
            return true
        case .emptyArray:
            out.append(contentsOf: "[]".utf8)
            return true
        case .emptyObject:
            out.append(contentsOf: "{}".utf8)
            return true
        case .element:
            return writeMembers(of: node, to: &out, asObject: false)
        }
    }

    /// Writes an element: as a string when it has only text left (unless `asObject`), else as an object.
    private func writeMembers(of node: Int32, to out: inout [UInt8], asObject: Bool) -> Bool {
        let element = nodes[Int(node)]
        let attributeRange = element.attributeStart..<(element.attributeStart + element.attributeCount)
        let hasAttributes = attributeRange.contains { !isSkipped(attribute: $0) }
        if element.firstChild < 0 && !hasAttributes && !asObject {
            // A leaf: its text exactly (an empty element is ""), unless a path took it.
            if isTextSkipped(node) { return false }
            appendString(Int(element.textStart)..<Int(element.textEnd), to: &out)
            return true
        }
        let start = out.count
        out.append(0x7B)
        var members = 0
        for index in attributeRange where !isSkipped(attribute: index) {
            let attribute = forest.attributes[Int(index)]
            appendKey(attribute.name, attribute: true, members: &members, to: &out)
            out.append(0x22)
            let value = Int(attribute.valueStart)..<Int(attribute.valueEnd)
            JSONText.appendEscaped(UnsafeBufferPointer(rebasing: forest.attributeBytes[value]), to: &out)
            out.append(0x22)
        }
        var childCount = 0
        for child in forest.children(of: node) where !isSkipped(child) { childCount += 1 }
        if childCount > 0 {
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * childCount) { slots in
                let children = UnsafeMutableBufferPointer(rebasing: slots[0..<childCount])
                let nextSame = UnsafeMutableBufferPointer(rebasing: slots[childCount...])
                var count = 0
                for child in forest.children(of: node) where !isSkipped(child) {
                    children[count] = child
                    count += 1
                }
                linkSameNames(children, into: nextSame)
                // Children grouped by name, in order of first appearance (a written child's slot becomes -1).
                for first in 0..<count where children[first] >= 0 {
                    writeGroup(from: first, of: children, nextSame: nextSame, members: &members, to: &out)
                }
            }
        }
        if !isTextSkipped(node) { appendOwnText(of: node, members: &members, to: &out) }
        out.append(0x7D)
        if members == 0 && !asObject {
            out.removeSubrange(start...)
            return false
        }
        return true
    }

    /// Links each slot of `children` to the next slot holding a child of the same name (-1 after the last), in one
    /// pass: grouping by scanning the later siblings for each name took time quadratic in an element's children
    /// (about 100,000 instructions for a RESO JSON listing's 80 members).
    private func linkSameNames(_ children: UnsafeMutableBufferPointer<Int32>,
                               into nextSame: UnsafeMutableBufferPointer<Int32>) {
        // An open-addressing table of the name → the earliest slot seen so far (walking backwards), at most half full.
        var size = 4
        while size < 2 * children.count { size *= 2 }
        let mask = size - 1
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: size) { table in
            table.initialize(repeating: -1)
            for slot in children.indices.reversed() {
                let name = nodes[Int(children[slot])].name
                var bucket = Int(truncatingIfNeeded: UInt32(bitPattern: name) &* 0x9E37_79B9) & mask
                while table[bucket] >= 0 && nodes[Int(children[Int(table[bucket])])].name != name {
                    bucket = (bucket + 1) & mask
                }
                nextSame[slot] = table[bucket]
                table[bucket] = Int32(slot)
            }
        }
    }

    /// Writes the child in slot `first` and its later siblings of the same name (`nextSame`'s chain) as one
    /// member; their slots become -1.
    private func writeGroup(from first: Int, of children: UnsafeMutableBufferPointer<Int32>,
                            nextSame: UnsafeMutableBufferPointer<Int32>, members: inout Int, to out: inout [UInt8]) {
        let firstIndex = children[first]
        let firstChild = nodes[Int(firstIndex)]
        let name = firstChild.name
        var size = 0
        var cursor = first
        while cursor >= 0 {
            size += 1
            cursor = Int(nextSame[cursor])
        }
        let mark = out.count
        let membersBefore = members
        appendKey(name, attribute: false, members: &members, to: &out)
        if size == 1 && firstChild.kind == .emptyArray {
            // An empty array is its own value: `[]`, never `[[]]`.
            children[first] = -1
            out.append(contentsOf: "[]".utf8)
            return
        }
        let multiValue = !alwaysArrays.isEmpty && alwaysArrays.contains(name)  // no hashing when there are none
        let array = size > 1 || multiValue || firstChild.inArray
        if array { out.append(0x5B) }
        if size == 1, multiValue, firstChild.kind == .string, !firstChild.inArray, !isTextSkipped(firstIndex) {
            // A multi-value field a server sent as one comma-joined string: its parts, as an array.
            children[first] = -1
            let parts = forest.string(Int(firstChild.textStart)..<Int(firstChild.textEnd)).split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            for (index, part) in parts.enumerated() {
                if index > 0 { out.append(0x2C) }
                JSONText.append(part, to: &out)
            }
            out.append(0x5D)
            return
        }
        var written = 0
        var sawEmptyArray = false
        var slot = first
        while slot >= 0 {
            let child = children[slot]
            children[slot] = -1
            slot = Int(nextSame[slot])
            if nodes[Int(child)].kind == .emptyArray { sawEmptyArray = true }
            let itemStart = out.count
            if written > 0 { out.append(0x2C) }
            if writeValue(child, to: &out) {
                written += 1
            } else {
                out.removeSubrange(itemStart...)
            }
        }
        if array { out.append(0x5D) }
        if written == 0 && !(array && sawEmptyArray) {
            out.removeSubrange(mark...)
            members = membersBefore
        }
    }

    /// Appends `"name":` (`"@name":` for an attribute), after a comma unless it is the first member.
    private func appendKey(_ name: Int32, attribute: Bool, members: inout Int, to out: inout [UInt8]) {
        if members > 0 { out.append(0x2C) }
        out.append(0x22)
        if attribute { out.append(0x40) }
        let start = name == 0 ? 0 : Int(keyEnds[Int(name) - 1])
        keyBytes.withUnsafeBufferPointer { out.append(contentsOf: $0[start..<Int(keyEnds[Int(name)])]) }
        out.append(0x22)
        out.append(0x3A)
        members += 1
    }

    /// Appends the element's own text as `"#text":` unless it is all whitespace.
    private func appendOwnText(of node: Int32, members: inout Int, to out: inout [UInt8]) {
        let element = nodes[Int(node)]
        var blank = true
        let text = forest.text
        forEachDirectRange(of: element) { range in
            if blank && !Self.isBlank(UnsafeBufferPointer(rebasing: text[range])) { blank = false }
        }
        guard !blank else { return }
        if members > 0 { out.append(0x2C) }
        out.append(contentsOf: "\"#text\":\"".utf8)
        members += 1
        forEachDirectRange(of: element) { range in
            JSONText.appendEscaped(UnsafeBufferPointer(rebasing: text[range]), to: &out)
        }
        out.append(0x22)
    }

    /// Calls `body` with each range of `element`'s own text (what its children's spans leave out), in order.
    private func forEachDirectRange(of element: RecordForest.Node, _ body: (Range<Int>) -> Void) {
        var cursor = Int(element.textStart)
        var child = element.firstChild
        while child >= 0 {
            let node = nodes[Int(child)]
            if Int(node.textStart) > cursor { body(cursor..<Int(node.textStart)) }
            cursor = max(cursor, Int(node.textEnd))
            child = node.nextSibling
        }
        if Int(element.textEnd) > cursor { body(cursor..<Int(element.textEnd)) }
    }

    /// Whether `bytes` are all XML white space (space, tab, line feed, carriage return): one shift and test a byte.
    private static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let spaces: UInt64 = 1 << 0x20 | 1 << 0x0D | 1 << 0x0A | 1 << 0x09
        for byte in bytes where byte > 0x20 || spaces >> byte & 1 == 0 { return false }
        return true
    }

    /// Appends the text bytes `range` as a JSON string.
    private func appendString(_ range: Range<Int>, to out: inout [UInt8]) {
        out.append(0x22)
        JSONText.appendEscaped(UnsafeBufferPointer(rebasing: forest.text[range]), to: &out)
        out.append(0x22)
    }
}

extension RecordTreeReference {
    /// The whole record as JSON (nothing left out).
    var json: [UInt8] { ForestJSON(forest: forest, root: root).object() }
}
