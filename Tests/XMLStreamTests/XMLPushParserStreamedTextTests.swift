import Testing
import XMLStream

/// Gathers streamed text per element and every name the parser reports, by id.
final class StreamingRecorder: XMLStreamDelegate {
    var lines: [String] = []
    var text: [UInt8] = []
    /// Every reported name's string by its id: one id must always mean one string.
    var namesByID: [Int: String] = [:]
    var conflicts: [String] = []

    func startElement(_ name: XMLName, parser: XMLPushParser) throws {
        note(name)
        if let namespace = parser.namespace { note(namespace) }
        flush()
        lines.append("start \(name)\(parser.namespace.map { " {\($0)}" } ?? "")")
    }

    func endElement(_ name: XMLName, parser: XMLPushParser) throws {
        note(name)
        flush()
        lines.append("end \(name)")
    }

    func characters(_ text: Span<UInt8>, parser: XMLPushParser) {
        for index in text.indices { self.text.append(text[index]) }
    }

    private func note(_ name: XMLName) {
        if let known = namesByID[name.id], known != name.string { conflicts.append("\(name.id): \(known) \(name)") }
        namesByID[name.id] = name.string
    }

    private func flush() {
        let string = String(decoding: text, as: UTF8.self)
        if !string.allSatisfy(\.isWhitespace) { lines.append("text \"\(string)\"") }
        text.removeAll()
    }
}

/// Takes elements by id only (`startElement(id:parser:)`), as the nested-XML reader does, and spells them back
/// through the parser; its name-taking methods must never be called.
final class IDRecorder: XMLStreamDelegate {
    var lines: [String] = []
    var calledByName = 0

    func startElement(_ name: XMLName, parser: XMLPushParser) throws { calledByName += 1 }
    func endElement(_ name: XMLName, parser: XMLPushParser) throws { calledByName += 1 }

    func startElement(id: Int, parser: XMLPushParser) throws {
        let namespace = parser.namespaceID < 0 ? "" : " {\(parser.internedName(parser.namespaceID))}"
        if parser.namespaceID != (parser.namespace?.id ?? -1) { lines.append("namespace id and name disagree") }
        var found: [(nameID: Int, value: String)] = []
        parser.forEachAttribute { id, value in
            found.append((id, value.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }))
        }
        if found.count != parser.attributeCount { lines.append("attribute count and attributes disagree") }
        let attributes = found.map { " \(parser.internedName($0.nameID))=\($0.value)" }.joined()
        lines.append("start \(parser.name(id: id))\(namespace)\(attributes)")
    }

    func endElement(id: Int, parser: XMLPushParser) throws {
        lines.append("end \(parser.internedName(id))")
    }
}

@Suite struct XMLPushParserStreamedTextTests {
    /// A document with entities, character references, CDATA, namespaces and more distinct names (1,400) than the
    /// parser's name cache takes (half its 1,024 slots: the later names are found in the dictionary).
    static let document: [UInt8] = {
        var xml = #"<r xmlns="urn:a" xmlns:b="urn:b"><b:x>1 &amp; 2</b:x>"#
            + #"<y a="x &amp; y &#38; z"><![CDATA[<raw>]]>&#233;t&#xE9;</y>"#
        for index in 0..<700 { xml += "<e\(index) k\(index)=\"v\">t\(index)</e\(index)>" }
        for index in stride(from: 699, through: 0, by: -7) { xml += "<e\(index)>again</e\(index)>" }
        return Array((xml + "</r>").utf8)
    }()

    /// Feeds `document` to `parser` in pieces of `chunk` bytes (nil: whole), then finishes.
    static func feed(_ parser: XMLPushParser, chunk: Int?) throws {
        let size = chunk ?? document.count
        var offset = 0
        while offset < document.count {
            try parser.feed(document[offset..<min(document.count, offset + size)])
            offset += size
        }
        try parser.finish()
    }

    @Test(arguments: [1, 3, 64, 4096, nil] as [Int?])
    func streamedTextEqualsCapturedTextAndNamesKeepTheirIDs(chunk: Int?) throws {
        let captured = parse(Self.document, chunk: chunk)
        #expect(captured.error == nil)
        let recorder = StreamingRecorder()
        let parser = try XMLPushParser(delegate: recorder)
        parser.streamsText = true
        try Self.feed(parser, chunk: chunk)
        // Compared without attributes and positions (captured) and namespaces (streamed): names and text only.
        func startTagName(_ line: String) -> String {
            line.hasPrefix("start ") ? line.split(separator: " ").prefix(2).joined(separator: " ") : line
        }
        let expected = captured.events.map(startTagName)
        let streamed = recorder.lines.map(startTagName)
        #expect(streamed == expected)
        #expect(recorder.lines[0] == "start r {urn:a}")
        #expect(recorder.lines[1] == "start x {urn:b}")
        #expect(recorder.lines[2] == "text \"1 & 2\"")
        #expect(recorder.lines.contains("text \"<raw>été\""))
        #expect(recorder.conflicts.isEmpty)
        #expect(recorder.namesByID.count >= 702)
    }

    @Test(arguments: [1, 64, nil] as [Int?])
    func aDelegateTakingIDsSeesWhatOneTakingNamesSees(chunk: Int?) throws {
        let byName = StreamingRecorder()
        let byID = IDRecorder()
        for delegate in [byName, byID] as [any XMLStreamDelegate] {
            try Self.feed(XMLPushParser(delegate: delegate), chunk: chunk)
        }
        #expect(byID.calledByName == 0)
        #expect(byID.lines.count == byName.lines.count)
        #expect(byID.lines.prefix(3) == ["start r {urn:a}", "start x {urn:b}", "end x"])
        #expect(byID.lines.contains("start e7 {urn:a} k7=v"))
        #expect(byID.lines.contains("start y {urn:a} a=x & y & z"))
        // Without attributes the two agree line for line (the name-taking recorder does not list attributes).
        let withoutAttributes = byID.lines.map { line in
            line.firstRange(of: /\s\w+=/).map { String(line[..<$0.lowerBound]) } ?? line
        }
        #expect(withoutAttributes == byName.lines)
    }

    @Test func capturedTextWinsOverStreaming() throws {
        let recorder = StreamingRecorder()
        let parser = try XMLPushParser(delegate: recorder)
        parser.streamsText = true
        parser.capturesText = true
        try parser.feed(Array("<a>text</a>".utf8)[...])
        try parser.finish()
        #expect(recorder.lines == ["start a", "end a"])
        #expect(parser.text == Array("text".utf8))
    }
}
