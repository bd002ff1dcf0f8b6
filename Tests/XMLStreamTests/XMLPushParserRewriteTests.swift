import Testing
@testable import XMLStream

/// With `rewritesNonASCII` the parser reports the same events, texts, positions and errors as without.
@Suite struct XMLPushParserRewriteTests {
    @Test(arguments: ["listings.xml", "truncated.xml", "mismatched.xml", "latin1-mislabeled.xml",
                      "control-chars.xml", "billion-laughs.xml", "doctype-no-entities.xml"])
    func fixturesParseAlikeEitherWay(file: String) throws {
        let bytes = try fixture(file)
        for chunk in [1, 7, nil] as [Int?] {
            let plain = parse(bytes, chunk: chunk)
            let rewritten = parse(bytes, chunk: chunk, rewritesNonASCII: true)
            #expect(rewritten.events == plain.events, "chunk \(String(describing: chunk))")
            #expect(rewritten.error == plain.error, "chunk \(String(describing: chunk))")
        }
    }

    /// Columns after rewritten characters on the same line: start tags (on one line and across lines) and errors.
    @Test(arguments: [
        ("<f><r>é — 🏄</r><r a=\"ü\">x</r></f>", nil),
        ("<f><r>é — 🏄</r><r\n a=\"ü\">x</r><r>ñ</r><r\n>y</r></f>", nil),
        ("<f><r>é — 🏄 ñ</r><r>ü</x></f>", "1:26: error: Opening and ending tag mismatch: r line 1 and x"),
        ("<f>\n<r>é — 🏄 ñ</r><r>ü\u{1}</r></f>", "2:19: error: PCDATA invalid Char value 1"),
        ("<f><r>é ü ñ</r><r>\u{FFFE}</r></f>", "1:19: error: Char 0xFFFE out of allowed range"),
        ("<f><r>é ü ñ &amp京]]></r></f>", "1:18: error: EntityRef: expecting ';'"),
        // Cut off in a text: the error is at the end of the input, however much of the text libxml2 had read.
        ("<f>\n<r>é — 🏄 ñ " + String(repeating: "x|", count: 200),
         "2:412: error: Premature end of data in tag r line 2"),
    ] as [(String, String?)])
    func positionsAreThoseOfTheDocumentAsWritten(document: String, error: String?) {
        let bytes = Array(document.utf8)
        for chunk in [1, 3, nil] as [Int?] {
            let plain = parse(bytes, chunk: chunk)
            let rewritten = parse(bytes, chunk: chunk, rewritesNonASCII: true)
            #expect(plain.error == error)
            #expect(rewritten.parser?.charactersRewritten ?? 0 >= 3)
            #expect(rewritten.events == plain.events, "chunk \(String(describing: chunk))")
            #expect(rewritten.error == plain.error, "chunk \(String(describing: chunk))")
        }
    }

    /// Several pieces of rows, each with non-ASCII characters early in a long text (the case the rewriting is for).
    @Test(arguments: [7, 4093, XMLPushParser.pieceSize + 1, nil] as [Int?])
    func longRowsParseAlikeInAnyChunks(chunk: Int?) {
        let bytes = XMLPushParserPiecesTests.document()
        let plain = parse(bytes)
        let rewritten = parse(bytes, chunk: chunk, rewritesNonASCII: true)
        #expect(plain.error == nil)
        #expect(rewritten.parser?.charactersRewritten ?? 0 > 1_000)
        #expect(rewritten.events == plain.events)
        let broken = XMLPushParserPiecesTests.document(breakAt: 1_500)
        #expect(parse(broken, chunk: chunk, rewritesNonASCII: true).error == parse(broken).error)
    }
}
