import Testing
import XMLStream

/// A chunk larger than `XMLPushParser.pieceSize` is pushed to libxml2 in pieces: events and errors must not depend
/// on where a piece ends.
@Suite struct XMLPushParserPiecesTests {
    /// About five pieces of listings, each line a different length so that piece boundaries fall inside names,
    /// attribute values, entity references, CDATA sections and multi-byte characters.
    static func document(breakAt brokenLine: Int? = nil) -> [UInt8] {
        var xml = "<feed>\n"
        var line = 2
        while xml.utf8.count < 5 * XMLPushParser.pieceSize {
            let padding = String(repeating: "é", count: line % 13)
            let closing = line == brokenLine ? "</listng>" : "</listing>"
            xml += "<listing id=\"\(line)\" note=\"a &amp; b\(padding)\"><city>Chula Vista \(padding)</city>"
                + "<remarks><![CDATA[<b>\(line)</b>]]> &lt;&#233;t&#xE9;</remarks>\(closing)\n"
            line += 1
        }
        return Array((xml + "</feed>\n").utf8)
    }

    @Test(arguments: [7, 4093, XMLPushParser.pieceSize - 1, XMLPushParser.pieceSize + 1])
    func oneWholeChunkGivesTheEventsOfSmallChunks(chunk: Int) throws {
        let bytes = Self.document()
        let whole = parse(bytes)
        let pieces = parse(bytes, chunk: chunk)
        #expect(whole.error == nil)
        #expect(whole.events.count > 3_000)
        #expect(whole.events == pieces.events)
    }

    @Test func anErrorPastSeveralPiecesHasItsLineAndColumn() throws {
        let bytes = Self.document(breakAt: 1_500)
        let whole = parse(bytes)
        #expect(whole.error == parse(bytes, chunk: 7).error)
        #expect(whole.error?.hasPrefix("1500:") == true, "\(whole.error ?? "no error")")
    }
}
