/// Writes a record tree (or what is left of it once the mapping took its values) as JSON that keeps its shape.
///
/// The convention, also the shape of `extra` and of a structured reject's raw record: an element is an object whose
/// child elements are keys (by local name, in order of first appearance), a repeated child (or a JSON array item,
/// or a name listed in `format.multi_value`) an array, attributes `@name` keys, and its own text `#text` when it
/// has children or attributes besides; an element with only text is that text. Whitespace-only text is dropped.
/// JSON values keep their types. A part that is consumed (read by a mapping path) is left out, and an element
/// left with nothing is left out too.
struct ForestJSON {
    let forest: RecordForest
    /// Names always written as arrays.
    var alwaysArrays: Set<Int32> = []
    /// Nodes left out whole.
    var skippedNodes: Set<Int32> = []
    /// Nodes whose own text is left out (a path read it, but not their children).
    var skippedText: Set<Int32> = []
    /// Attributes (by index in `forest.attributes`) left out.
    var skippedAttributes: Set<Int32> = []

    init(forest: RecordForest, alwaysArrays: Set<Int32> = []) {
        self.forest = forest
        self.alwaysArrays = alwaysArrays
    }

    /// The element `root` as a JSON object (`{}` when nothing is left).
    func object(_ root: Int32) -> [UInt8] {
        var out: [UInt8] = []
        if !writeMembers(of: root, to: &out, asObject: true) { out = Array("{}".utf8) }
        return out
    }

    /// Writes `node` as a JSON value; false (nothing written) when nothing of it is left.
    @discardableResult
    private func writeValue(_ node: Int32, to out: inout [UInt8]) -> Bool {
        if skippedNodes.contains(node) { return false }
        let element = forest.nodes[Int(node)]
        switch element.kind {
        case .number, .boolean:
            if skippedText.contains(node) { return false }
            out.append(contentsOf: forest.text[Int(element.textStart)..<Int(element.textEnd)])
            return true
        case .null:
            if skippedText.contains(node) { return false }
            out.append(contentsOf: Array("null".utf8))
            return true
        case .string:
            if skippedText.contains(node) { return false }
            JSONText.append(forest.string(Int(element.textStart)..<Int(element.textEnd)), to: &out)
            return true
        case .emptyArray:
            out.append(contentsOf: Array("[]".utf8))
            return true
        case .emptyObject:
            out.append(contentsOf: Array("{}".utf8))
            return true
        case .element:
            return writeMembers(of: node, to: &out, asObject: false)
        }
    }

    /// Writes an element: as a string when it has only text left (unless `asObject`), else as an object.
    private func writeMembers(of node: Int32, to out: inout [UInt8], asObject: Bool) -> Bool {
        let element = forest.nodes[Int(node)]
        var attributes: [Int32] = []
        for index in element.attributeStart..<(element.attributeStart + element.attributeCount)
        where !skippedAttributes.contains(index) {
            attributes.append(index)
        }
        // Children grouped by name, in order of first appearance.
        var order: [Int32] = []
        var groups: [Int32: [Int32]] = [:]
        for child in forest.children(of: node) where !skippedNodes.contains(child) {
            let name = forest.nodes[Int(child)].name
            if groups[name] == nil { order.append(name) }
            groups[name, default: []].append(child)
        }
        var ownText = ""
        if !skippedText.contains(node) {
            let ranges = forest.directText(of: node)
            if !ranges.allSatisfy(forest.isBlank) {
                ownText = ranges.map(forest.string).joined()
            }
        }
        let leafText = element.firstChild < 0 && attributes.isEmpty
        if leafText && !asObject {
            // A leaf: its text exactly (an empty element is ""), unless a path took it.
            if skippedText.contains(node) { return false }
            JSONText.append(forest.string(Int(element.textStart)..<Int(element.textEnd)), to: &out)
            return true
        }
        let start = out.count
        out.append(0x7B)
        var members = 0
        func key(_ name: String) {
            if members > 0 { out.append(0x2C) }
            JSONText.append(name, to: &out)
            out.append(0x3A)
            members += 1
        }
        for index in attributes {
            let attribute = forest.attributes[Int(index)]
            key("@" + forest.names[Int(attribute.name)])
            JSONText.append(forest.attributeValue(attribute), to: &out)
        }
        for name in order {
            let children = groups[name]!
            let mark = out.count
            let membersBefore = members
            key(forest.names[Int(name)])
            if children.count == 1, forest.nodes[Int(children[0])].kind == .emptyArray {
                // An empty array is its own value: `[]`, never `[[]]`.
                out.append(contentsOf: Array("[]".utf8))
                continue
            }
            let array = children.count > 1 || alwaysArrays.contains(name)
                || forest.nodes[Int(children[0])].inArray
            var written = 0
            if array { out.append(0x5B) }
            // A multi-value field a server sent as one comma-joined string: its parts, as an array.
            let first = forest.nodes[Int(children[0])]
            if children.count == 1, alwaysArrays.contains(name), first.kind == .string, !first.inArray,
               !skippedNodes.contains(children[0]), !skippedText.contains(children[0]) {
                let parts = forest.string(Int(first.textStart)..<Int(first.textEnd)).split(separator: ",")
                    .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                for (index, part) in parts.enumerated() {
                    if index > 0 { out.append(0x2C) }
                    JSONText.append(part, to: &out)
                }
                out.append(0x5D)
                continue
            }
            for child in children {
                let itemStart = out.count
                if written > 0 { out.append(0x2C) }
                if writeValue(child, to: &out) {
                    written += 1
                } else {
                    out.removeSubrange(itemStart...)
                }
            }
            if array { out.append(0x5D) }
            if written == 0 && !(array && children.contains { forest.nodes[Int($0)].kind == .emptyArray }) {
                out.removeSubrange(mark...)
                members = membersBefore
            }
        }
        if !ownText.isEmpty {
            key("#text")
            JSONText.append(ownText, to: &out)
        }
        out.append(0x7D)
        if members == 0 && !asObject {
            out.removeSubrange(start...)
            return false
        }
        return true
    }
}

extension RecordTreeReference {
    /// The whole record as JSON (nothing left out).
    var json: [UInt8] { ForestJSON(forest: forest).object(root) }
}
