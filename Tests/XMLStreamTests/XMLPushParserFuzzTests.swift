import Testing
@testable import XMLStream

/// Inputs the XML fuzz targets found (Fixtures/fuzz-*: the minimized input's document, without the harness's
/// option bytes), and the rule each one broke.
@Suite struct XMLPushParserFuzzTests {
    /// xml-triples and xml-plain (LeakSanitizer): for an entity declaration libxml2 builds a document even in SAX
    /// mode, which freeing the parser context left behind (13 KB per input). It is freed once parsing stops.
    @Test(arguments: [
        ("fuzz-entity-leak.xml", 1, "1:20: error: Space required after '<!ENTITY'"),
        ("fuzz-entity-leak.xml", nil, "1:20: error: Space required after '<!ENTITY'"),
        ("billion-laughs.xml", 7, "3:3: error: entity declarations are not allowed (entity \"lol\")"),
    ] as [(String, Int?, String)])
    func refusedEntityDeclarationLeavesNoDocument(name: String, chunk: Int?, error: String) throws {
        let result = parse(try fixture(name), chunk: chunk)
        #expect(result.error == error)
        let parser = try #require(result.parser)
        #expect(!parser.holdsDocument)
    }
}
