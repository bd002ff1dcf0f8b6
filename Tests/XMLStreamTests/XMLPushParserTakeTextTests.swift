import Testing
import XMLStream

/// Captures every element's text and takes it at each `<cut/>`, keeping the text from `keepFrom` on.
private final class Cutter: XMLStreamDelegate {
    var taken: [[UInt8]] = []
    var spare: [UInt8] = []
    var keepFrom: (([UInt8]) -> Int)?

    func startElement(_ name: XMLName, parser: XMLPushParser) throws {
        parser.capturesText = true
        guard name.string == "cut" else { return }
        let keep = keepFrom?(parser.text) ?? parser.text.count
        var given: [UInt8] = []
        swap(&given, &spare)
        taken.append(parser.takeText(keepingFrom: keep, reusing: consume given))
    }

    func endElement(_ name: XMLName, parser: XMLPushParser) throws {}
}

@Suite struct XMLPushParserTakeTextTests {
    static let document = Array("<r><a>first</a><cut/><b>second</b><cut/><c>third</c></r>".utf8)

    /// The text taken is what was captured; the parser carries on with the kept tail, in the spare's storage.
    @Test func theNewTextGoesIntoTheSpareAndKeepsTheTail() throws {
        let cutter = Cutter()
        // Keep the last three bytes of each text ("rst", then "ond") with the parser.
        cutter.keepFrom = { $0.count - 3 }
        cutter.spare.reserveCapacity(4096)
        let spareStorage = cutter.spare.withUnsafeBufferPointer { $0.baseAddress }
        let parser = try XMLPushParser(delegate: cutter)
        try parser.feed(Self.document[...])
        try parser.finish()

        #expect(cutter.taken.map { String(decoding: $0, as: UTF8.self) } == ["first", "rstsecond"])
        #expect(String(decoding: parser.text, as: UTF8.self) == "ondthird")
        // The first cut's new text is the spare (no new buffer); the second cut had no spare and made one.
        #expect(cutter.taken[1].withUnsafeBufferPointer { $0.baseAddress } == spareStorage)
    }

    /// Without a spare, or with one too small for the text, the parser makes a buffer of its own.
    @Test(arguments: [0, 2]) func aSmallOrMissingSpareStillWorks(spareCapacity: Int) throws {
        let cutter = Cutter()
        cutter.spare.reserveCapacity(spareCapacity)
        let parser = try XMLPushParser(delegate: cutter)
        try parser.feed(Self.document[...])
        try parser.finish()
        #expect(cutter.taken.map { String(decoding: $0, as: UTF8.self) } == ["first", "second"])
        #expect(String(decoding: parser.text, as: UTF8.self) == "third")
    }
}
