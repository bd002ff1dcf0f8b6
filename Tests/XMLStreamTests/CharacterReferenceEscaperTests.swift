import Testing
@testable import XMLStream

/// The escaper alone: bytes in, bytes out, no parser.
@Suite struct CharacterReferenceEscaperTests {
    /// The rewritten stream of `document` fed in chunks of `chunk` bytes (nil: whole), and the escaper after it.
    static func rewrite(_ document: String, chunk: Int? = nil)
        -> (text: String, bytes: [UInt8], escaper: CharacterReferenceEscaper) {
        rewrite(Array(document.utf8), chunk: chunk)
    }

    static func rewrite(_ bytes: [UInt8], chunk: Int? = nil)
        -> (text: String, bytes: [UInt8], escaper: CharacterReferenceEscaper) {
        var escaper = CharacterReferenceEscaper()
        var stream: [UInt8] = []
        var output: [UInt8] = []
        let size = max(1, chunk ?? bytes.count)
        var offset = 0
        while offset < bytes.count {
            let piece = bytes[offset..<min(bytes.count, offset + size)]
            if escaper.rewrite(piece, into: &output) { stream += output } else { stream += piece }
            offset += size
        }
        escaper.finish(into: &output)
        stream += output
        #expect(escaper.written == stream.count)
        return (String(decoding: stream, as: UTF8.self), stream, escaper)
    }

    @Test(arguments: [
        // Character data: each non-ASCII character becomes a reference, whatever its length in UTF-8.
        ("<a>Café — 🏄 ¾</a>", "<a>Caf&#xE9; &#x2014; &#x1F3C4; &#xBE;</a>"),
        ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a>é</a>",
         "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a>&#xE9;</a>"),
        ("\u{FEFF}<?xml version='1.0' encoding='utf8'?><a>é</a>",
         "\u{FEFF}<?xml version='1.0' encoding='utf8'?><a>&#xE9;</a>"),
        // Names, attribute values (with `>` inside), comments, CDATA and instructions pass as they are.
        ("<Café x=\"é>é\" y='ü'>ñ</Café>", "<Café x=\"é>é\" y='ü'>&#xF1;</Café>"),
        ("<a><!-- é -> é --><![CDATA[é]]>é<?pi é?>é</a>", "<a><!-- é -> é --><![CDATA[é]]>&#xE9;<?pi é?>&#xE9;</a>"),
        ("<a><![CDATA[]é]>]]]>é</a>", "<a><![CDATA[]é]>]]]>&#xE9;</a>"),
        // Another declared encoding, a document type declaration: off for the rest of the document.
        ("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>é</a>",
         "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>é</a>"),
        ("<a>é</a><!DOCTYPE a><a>é</a>", "<a>&#xE9;</a><!DOCTYPE a><a>é</a>"),
        // U+FFFE and U+FFFF are not XML characters: libxml2 stops at them, and nothing after is rewritten.
        ("<a>é\u{FFFE}é</a>", "<a>&#xE9;\u{FFFE}é</a>"),
        ("<a x='\u{FFFF}'>é</a>", "<a x='\u{FFFF}'>é</a>"),
        // A reference's name that runs into a non-ASCII character: libxml2 fails on it, quoting the name.
        ("<a>é &amp京 é</a>", "<a>&#xE9; &amp京 é</a>"),
        ("<a>é &#x4E京 é</a>", "<a>&#xE9; &#x4E京 é</a>"),
        ("<a>é &amp; 京</a>", "<a>&#xE9; &amp; &#x4EAC;</a>"),
    ])
    func rewritesCharacterDataOnly(document: String, expected: String) {
        #expect(Self.rewrite(document).text == expected)
    }

    /// libxml2 stops at the first invalid sequence and quotes the four bytes from it: none after it is rewritten,
    /// wherever it is (text, attribute value, name, comment).
    @Test(arguments: [
        Array("<a>é".utf8) + [0xE9, 0x20] + Array("é</a>".utf8),
        Array("<a>é".utf8) + [0xC0, 0xAF] + Array("é</a>".utf8),
        Array("<a>é".utf8) + [0xED, 0xA0, 0x80] + Array("é</a>".utf8),
        Array("<a>é<b x='".utf8) + [0xCB] + Array("'>é</b></a>".utf8),
        Array("<a>é<b".utf8) + [0xCB] + Array(">é</b></a>".utf8),
        Array("<a>é<!--".utf8) + [0xCB] + Array("-->é</a>".utf8),
    ] as [[UInt8]])
    func invalidUTF8PassesForLibxml2ToReport(bytes: [UInt8]) {
        var expected = bytes
        expected.replaceSubrange(3..<5, with: Array("&#xE9;".utf8))  // only the first é
        for chunk in [1, 2, nil] as [Int?] {
            #expect(Array(Self.rewrite(bytes, chunk: chunk).bytes) == expected, "chunk \(String(describing: chunk))")
        }
    }

    @Test(arguments: [
        [0xFE, 0xFF, 0x00, 0x3C, 0x00, 0x61, 0x00, 0x3E],  // UTF-16 with a byte-order mark
        [0x3C, 0x00, 0x61, 0x00, 0x3E, 0x00, 0xE9, 0x00],  // UTF-16LE without one
        [0x00, 0x00, 0x00, 0x00, 0x00],  // not held: libxml2 says at once that this is no document
    ] as [[UInt8]])
    func aDocumentThatIsNotASCIICompatibleIsLeftAlone(bytes: [UInt8]) {
        var escaper = CharacterReferenceEscaper()
        var output: [UInt8] = []
        #expect(!escaper.rewrite(bytes[...], into: &output))  // passed as it is
        #expect(escaper.state == .off)
        #expect(Self.rewrite(bytes, chunk: 1).text == String(decoding: bytes, as: UTF8.self))
    }

    @Test func aDocumentWithoutNonASCIICharacterDataIsNotCopied() {
        var escaper = CharacterReferenceEscaper()
        var output: [UInt8] = []
        let head = Array("<?xml version=\"1.0\"?>\n<feed a=\"é\">".utf8)
        #expect(!escaper.rewrite(head[...], into: &output))
        #expect(escaper.state == .text)
        let body = Array("<row>plain ASCII</row><!-- ü --></feed>\n".utf8)
        #expect(!escaper.rewrite(body[...], into: &output))
        #expect(escaper.written == head.count + body.count)
    }

    @Test func denseNonASCIITextStopsBeingRewrittenAfterAFewReferences() {
        let dense = String(repeating: "東", count: CharacterReferenceEscaper.referencesPerText + 3)
        let result = Self.rewrite("<a>\(dense)</a><b>é</b>")
        let rewritten = String(repeating: "&#x6771;", count: CharacterReferenceEscaper.referencesPerText)
        #expect(result.text == "<a>\(rewritten)東東東</a><b>&#xE9;</b>")
    }

    @Test func referencesSayWhereTheyEndAndHowManyColumnsTheyAdd() {
        var escaper = Self.rewrite("<a>é🏄</a>").escaper
        var taken: [CharacterReferenceEscaper.Reference] = []
        while let next = escaper.nextReference {
            taken.append(next)
            escaper.dropReference()
        }
        // "<a>&#xE9;" ends at 9; "&#x1F3C4;" (9 bytes) then ends at 18.
        #expect(taken == [.init(end: 9, extra: 5), .init(end: 18, extra: 8)])
    }

    /// Every split point (inside the declaration, a multi-byte character, `<!--`, `]]>`, a quoted value) gives the
    /// stream of the whole document.
    @Test func everyChunkBoundaryGivesTheSameStream() {
        let document = "\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<feed x=\"a>é\">"
            + "<r>Núñez — 🏡 ¾ &amp;é</r><r>&lt京</r><!-- é --><r><![CDATA[é]]]]>ü</r><?p é?>"
            + "<Caf\u{E9}>ñ</Caf\u{E9}></feed>"
        let whole = Self.rewrite(document)
        for chunk in 1...12 {
            let pieces = Self.rewrite(document, chunk: chunk)
            #expect(pieces.text == whole.text, "chunk \(chunk)")
        }
        #expect(whole.text.contains("<r>N&#xFA;&#xF1;ez &#x2014; &#x1F3E1; &#xBE; &amp;&#xE9;</r><r>&lt京</r>"))
    }
}
