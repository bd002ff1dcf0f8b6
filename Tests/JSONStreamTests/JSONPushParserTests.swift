import Testing
import JSONStream

@Suite struct JSONPushParserTests {
    /// A small RESO-like page with every event kind, escapes, surrogate pairs, multi-byte text and numbers.
    static let page = """
        \u{FEFF}{"@odata.context": "https://api.example.com/odata/$metadata#Property",
         "value": [
          {"ListingKey": "3yd-SDMLS-260012345", "ListPrice": 100000.00, "BathroomsFull": 3.000, "Beds": 12.0,
           "Remarks": "Ocean \\"view\\" \\\\ tab\\tnew\\nline \\u00e9t\\u00E9 \\ud83c\\udf05 — 東京 🌅",
           "Lat": -117.123456, "Big": 123456789012345678901234567890, "Exp": 1E+400, "Zero": -0,
           "MlgCanView": true, "Waterfront": false, "Unit": null, "Media": [], "ListAgent": {},
           "Appliances": ["Dishwasher", "Range"]}
         ],
         "@odata.nextLink": "https://api.example.com/odata/Property?$skip=2&$top=1"}

        """

    static let pageEvents = [
        "{", "key \"@odata.context\"", "string \"https://api.example.com/odata/$metadata#Property\"",
        "key \"value\"", "[", "{",
        "key \"ListingKey\"", "string \"3yd-SDMLS-260012345\"", "key \"ListPrice\"", "number 100000.00",
        "key \"BathroomsFull\"", "number 3.000", "key \"Beds\"", "number 12.0",
        "key \"Remarks\"", "string \"Ocean \"view\" \\ tab\tnew\nline été 🌅 — 東京 🌅\"",
        "key \"Lat\"", "number -117.123456", "key \"Big\"", "number 123456789012345678901234567890",
        "key \"Exp\"", "number 1E+400", "key \"Zero\"", "number -0",
        "key \"MlgCanView\"", "true", "key \"Waterfront\"", "false", "key \"Unit\"", "null",
        "key \"Media\"", "[", "]", "key \"ListAgent\"", "{", "}",
        "key \"Appliances\"", "[", "string \"Dishwasher\"", "string \"Range\"", "]",
        "}", "]",
        "key \"@odata.nextLink\"", "string \"https://api.example.com/odata/Property?$skip=2&$top=1\"",
        "}",
    ]

    @Test func everyEventKindInOrderWithExactNumberText() {
        #expect(parseJSON(Self.page) == ParseOutcome(events: Self.pageEvents, error: nil))
    }

    @Test func everySplitIntoTwoChunksGivesTheSameEvents() {
        let bytes = Array(Self.page.utf8)
        let whole = parseJSON(bytes)
        for cut in 1..<bytes.count {
            #expect(parseJSON(bytes, cut: cut) == whole, "split at \(cut)")
        }
    }

    @Test(arguments: [[1], [2], [3], [7], [1, 5, 2, 64]])
    func smallChunksGiveTheSameEventsAndPositions(chunks: [Int]) {
        let bytes = Array(Self.page.utf8)
        #expect(parseJSON(bytes, chunks: chunks, positions: true) == parseJSON(bytes, positions: true))
    }

    @Test func positionsAreTheLastByteOfEachTokenInBytes() {
        let text = "{\"a\": [1, 22,\n  \"é\", true],\n \"b\": null}"
        #expect(parseJSON(text, positions: true).events == [
            "{ @1:1", "key \"a\" @1:4", "[ @1:7", "number 1 @1:8", "number 22 @1:12",
            "string \"é\" @2:6", "true @2:12", "] @2:13", "key \"b\" @3:4", "null @3:10", "} @3:11",
        ])
    }

    @Test func jsonLinesWithThreeValues() {
        let text = "{\"ListingKey\":\"a\"}\n{\"ListingKey\":\"b\"}\n[3]\n"
        let options = JSONStreamOptions(allowsMultipleValues: true)
        let expected = [
            "{", "key \"ListingKey\"", "string \"a\"", "}", "{", "key \"ListingKey\"", "string \"b\"", "}",
            "[", "number 3", "]",
        ]
        #expect(parseJSON(text, options: options) == ParseOutcome(events: expected, error: nil))
        #expect(parseJSON(text, chunks: [1], options: options).events == expected)
        #expect(parseJSON("1 2\n3", options: options).events == ["number 1", "number 2", "number 3"])
        #expect(parseJSON("{}{}", options: options).events == ["{", "}", "{", "}"])
        #expect(parseJSON(" \n ", options: options) == ParseOutcome(events: [], error: nil))
        #expect(parseJSON("", options: options) == ParseOutcome(events: [], error: nil))
        #expect(parseJSON("{}\n{\"a\"", options: options).error
                == "2:5: error: unexpected end of input: 1 object not closed")
        #expect(parseJSON("{}\n\"ab", options: options).error == "2:4: error: unexpected end of input inside a string")
        #expect(parseJSON("{}\ntru", options: options).error
                == "2:4: error: lexical error: invalid string in json text")
    }

    @Test func oneValueUnlessSeveralAreAllowed() {
        #expect(parseJSON("{} {}").error == "1:4: error: parse error: trailing garbage")
        #expect(parseJSON("{}\n\n") == ParseOutcome(events: ["{", "}"], error: nil))
    }

    @Test(arguments: [
        ("", "1:1: error: no JSON value (empty input)"),
        ("  \n", "2:1: error: no JSON value (empty input)"),
        ("{\"a\":[1,2", "1:10: error: unexpected end of input: 1 object and 1 array not closed"),
        ("[[[", "1:4: error: unexpected end of input: 3 arrays not closed"),
        ("{\"value\": [\n  {\"a\": \"b", "2:11: error: unexpected end of input: 2 objects and 1 array not closed"),
        ("\"abc", "1:5: error: unexpected end of input inside a string"),
        ("tru", "1:4: error: lexical error: invalid string in json text"),
        ("[1.]", "1:4: error: lexical error: malformed number, a digit is required after the decimal point"),
        ("[1,]", "1:4: error: parse error: unallowed token at this point in JSON text"),
        ("{\"a\":1,}", "1:8: error: parse error: invalid object key (must be a string)"),
        ("[01]", "1:3: error: parse error: after array element, I expect ',' or ']'"),
        ("[NaN]", "1:2: error: lexical error: invalid char in json text"),
        ("// c\n{}", "1:1: error: lexical error: probable comment found in input text, comments are not enabled"),
        ("[\"a\\x\"]", "1:5: error: lexical error: inside a string, '\\' occurs before a character which it may not"),
    ])
    func invalidTextIsRefusedWithItsPosition(text: String, error: String) {
        let bytes = Array(text.utf8)
        #expect(parseJSON(bytes).error == error)
        #expect(parseJSON(bytes, chunks: [1]).error == error, "fed one byte at a time")
    }

    @Test(arguments: [
        ([0x5B, 0x22, 0xC0, 0x80, 0x22, 0x5D], "1:3: error: invalid UTF-8 in a string (byte 0xC0)"),  // overlong NUL
        ([0x5B, 0x22, 0x61, 0xE0, 0x80, 0xAF, 0x22, 0x5D], "1:4: error: invalid UTF-8 in a string (byte 0xE0)"),
        ([0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D], "1:3: error: invalid UTF-8 in a string (byte 0xED)"),  // surrogate
        ([0x5B, 0x22, 0xF4, 0x90, 0x80, 0x80, 0x22, 0x5D], "1:3: error: invalid UTF-8 in a string (byte 0xF4)"),
        ([0x5B, 0x22, 0xF8, 0x88, 0x80, 0x80, 0x80, 0x22], "1:3: error: invalid UTF-8 in a string (byte 0xF8)"),
        ([0x5B, 0x22, 0x80, 0x22, 0x5D], "1:3: error: invalid UTF-8 in a string (byte 0x80)"),  // lone continuation
        ([0x5B, 0x22, 0xC3, 0x22, 0x5D], "1:3: error: invalid UTF-8 in a string (byte 0xC3)"),  // cut sequence
        ([0x0A, 0x7B, 0x22, 0xE9, 0x22, 0x3A, 0x31, 0x7D], "2:3: error: invalid UTF-8 in a string (byte 0xE9)"),
        ([0x5B, 0xC3, 0xA9, 0x5D], "1:2: error: lexical error: invalid char in json text"),  // outside a string
    ])
    func badUTF8IsRefusedWithItsPosition(bytes: [UInt8], error: String) {
        #expect(parseJSON(bytes).error == error)
        for cut in 1..<bytes.count {
            #expect(parseJSON(bytes, cut: cut).error == error, "split at \(cut)")
        }
    }

    @Test(arguments: [
        ("[\"\\ud800\"]", "1:3: error: unpaired surrogate \\uD800 in a string"),
        ("[\"\\ud800x\"]", "1:3: error: unpaired surrogate \\uD800 in a string"),
        ("[\"\\ud800\\n\"]", "1:3: error: unpaired surrogate \\uD800 in a string"),
        ("[\"\\ud800\\u0041\"]", "1:3: error: unpaired surrogate \\uD800 in a string"),
        ("[\"ab\\uDC00\"]", "1:5: error: unpaired surrogate \\uDC00 in a string"),
        ("[\"a\tb\"]", "1:4: error: unescaped control character 0x09 in a string"),
        ("{\"a\nb\": 1}", "1:4: error: unescaped control character 0x0A in a string"),
    ])
    func unpairedSurrogatesAndControlCharactersAreRefused(text: String, error: String) {
        let bytes = Array(text.utf8)
        #expect(parseJSON(bytes).error == error)
        #expect(parseJSON(bytes, chunks: [1]).error == error)
    }

    @Test func validMultiByteTextAndSurrogatePairsPass() {
        let text = "[\"\\uD83C\\uDF05 \\u00e9 é ñ — 東京 🌅 \\u0041\\u0000z \\uFFFF\"]"
        let decoded = "string \"🌅 é é ñ — 東京 🌅 A\u{0}z \u{FFFF}\""
        let expected = ParseOutcome(events: ["[", decoded, "]"], error: nil)
        #expect(parseJSON(text) == expected)
        #expect(parseJSON(text, chunks: [1]) == expected)
    }

    @Test func nestingDeeperThanTheLimitIsRefusedNotACrash() {
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(parseJSON(ok).error == nil)
        let over = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(parseJSON(over).error == "1:65: error: nesting deeper than 64 levels")
        let objects = String(repeating: "{\"a\":", count: 70)
        #expect(parseJSON(objects, chunks: [3]).error == "1:321: error: nesting deeper than 64 levels")
        let hostile = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        #expect(parseJSON(hostile).error == "1:65: error: nesting deeper than 64 levels")
        let deeper = JSONStreamOptions(maxDepth: 200)
        #expect(parseJSON(over, options: deeper).error == nil)
    }

    @Test func bigStringsAcrossChunksArriveWhole() throws {
        let remarks = String(repeating: "Ocean views é 🌅 \\\"quoted\\\" ", count: 200_000)  // ~6 MB
        let decoded = remarks.replacing("\\\"", with: "\"")
        let bytes = Array("{\"PublicRemarks\": \"\(remarks)\", \"n\": 1}".utf8)
        let expected = ["{", "key \"PublicRemarks\"", "string \"\(decoded)\"", "key \"n\"", "number 1", "}"]
        #expect(parseJSON(bytes, chunks: [65_536]).events == expected)
        #expect(parseJSON(bytes, chunks: [4093, 1]).events == expected)
    }

    @Test func tokensLongerThanTheLimitAreRefusedWhereverTheChunksEnd() {
        let options = JSONStreamOptions(maxValueBytes: 1000)
        let fits = Array(("[\"" + String(repeating: "x", count: 990) + "\"]").utf8)
        #expect(parseJSON(fits, options: options).error == nil)
        let long = Array(("[1,\n\"" + String(repeating: "x", count: 5000) + "\"]").utf8)
        let error = "2:999: error: a string or number longer than 1000 bytes"
        #expect(parseJSON(long, options: options).error == error)
        for chunks in [[1], [100], [999], [1001], [4096]] {
            #expect(parseJSON(long, chunks: chunks, options: options).error == error, "chunks of \(chunks)")
        }
        let digits = Array(("[" + String(repeating: "7", count: 3000) + "]").utf8)
        #expect(parseJSON(digits, chunks: [512], options: options).error
                == "1:1002: error: a string or number longer than 1000 bytes")
    }

    @Test func odataKeysAreExact() {
        let text = "{\"@odata.context\":\"c\",\"@odata.count\":3,\"@odata.nextLink\":\"p2\",\"X_Local-Field\":1}"
        #expect(parseJSON(text).events == [
            "{", "key \"@odata.context\"", "string \"c\"", "key \"@odata.count\"", "number 3",
            "key \"@odata.nextLink\"", "string \"p2\"", "key \"X_Local-Field\"", "number 1", "}",
        ])
    }

    @Test func aByteOrderMarkIsSkippedOnlyAtTheStart() {
        #expect(parseJSON([0xEF, 0xBB, 0xBF, 0x5B, 0x5D], chunks: [1]) == ParseOutcome(events: ["[", "]"], error: nil))
        #expect(parseJSON([0xEF, 0xBB, 0xBF]).error == "1:4: error: no JSON value (empty input)")
        #expect(parseJSON([0x20, 0xEF, 0xBB, 0xBF, 0x5B, 0x5D]).error
                == "1:2: error: lexical error: invalid char in json text")
        #expect(parseJSON([0xEF, 0xBB]).error == "1:1: error: lexical error: invalid char in json text")
    }

    /// `text` in a wide encoding (ASCII text: each byte widened with zero bytes), after its byte order mark.
    static func widened(_ text: String, _ encoding: String, byteOrderMark: Bool) -> [UInt8] {
        let bom: [UInt8] = encoding == "UTF-16LE" ? [0xFF, 0xFE] : [0xFE, 0xFF]
        return (byteOrderMark ? bom : []) + text.utf8.flatMap { unit -> [UInt8] in
            switch encoding {
            case "UTF-16LE": [unit, 0]
            case "UTF-16BE": [0, unit]
            case "UTF-32LE": [unit, 0, 0, 0]
            default: [0, 0, 0, unit]
            }
        }
    }

    /// `{"a": 1}` in the wide encodings, with and without a byte order mark: refused at 1:1 naming the encoding,
    /// however the bytes are split, instead of yajl's "invalid char".
    @Test(arguments: [("UTF-16LE", true), ("UTF-16LE", false), ("UTF-16BE", true), ("UTF-16BE", false),
                      ("UTF-32LE", false), ("UTF-32BE", false)])
    func aWideEncodingIsRefusedByName(encoding: String, byteOrderMark: Bool) {
        let bytes = Self.widened("{\"a\": 1}", encoding, byteOrderMark: byteOrderMark)
        let error = "1:1: error: JSON must be UTF-8, but this text is \(encoding): convert it first (iconv -f "
            + "\(encoding) -t UTF-8)"
        #expect(parseJSON(bytes).error == error)
        #expect(parseJSON(bytes, chunks: [1]).error == error, "fed one byte at a time")
        #expect(parseJSON(bytes, chunks: [3]).error == error, "fed three bytes at a time")
    }

    @Test func aDelegateErrorStopsTheParserAndIsRethrownUnchanged() throws {
        let recorder = JSONEventRecorder()
        recorder.failOnKey = "b"
        let parser = try JSONPushParser(delegate: recorder)
        #expect(throws: JSONEventRecorder.Refused(key: "b")) {
            try parser.feed(Array("{\"a\": 1, \"b\": 2, \"c\": 3}".utf8)[...])
        }
        #expect(recorder.events == ["{", "key \"a\"", "number 1"])
        #expect(throws: JSONEventRecorder.Refused(key: "b")) { try parser.finish() }
    }

    @Test func depthAndBytesReadFollowTheText() throws {
        final class DepthRecorder: JSONStreamDelegate {
            var depths: [Int] = []
            func startObject(parser: JSONPushParser) throws { depths.append(parser.depth) }
            func endObject(parser: JSONPushParser) throws { depths.append(parser.depth) }
            func startArray(parser: JSONPushParser) throws { depths.append(parser.depth) }
            func endArray(parser: JSONPushParser) throws { depths.append(parser.depth) }
            func key(_ key: Span<UInt8>, parser: JSONPushParser) throws {}
            func string(_ value: Span<UInt8>, parser: JSONPushParser) throws { depths.append(parser.depth) }
            func number(_ text: Span<UInt8>, parser: JSONPushParser) throws {}
            func boolean(_ value: Bool, parser: JSONPushParser) throws {}
            func null(parser: JSONPushParser) throws {}
        }
        let recorder = DepthRecorder()
        let parser = try JSONPushParser(delegate: recorder)
        try parser.feed(Array("{\"value\": [{\"a\": \"b\"}]}".utf8)[...])
        try parser.finish()
        #expect(recorder.depths == [1, 2, 3, 3, 2, 1, 0])
        #expect(parser.bytesRead == 23)
    }
}

/// The scanner's UTF-8 verdict agrees with the standard library's strict validator on random byte strings, fed
/// whole, one byte at a time and in odd chunks.
@Suite struct JSONPushParserUTF8Tests {
    /// SplitMix64: deterministic random bytes for the test.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    static let pieces: [[UInt8]] = [
        Array("a".utf8), Array("Z9 ".utf8), Array("é".utf8), Array("€".utf8), Array("🌅".utf8), Array("東".utf8),
        [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80], [0xFF], [0xC3],
        [0xF0, 0x9F], [0xEF, 0xBF, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF], [0xE0, 0xA0, 0x80], [0xE0, 0x9F, 0xBF],
    ]

    @Test func randomStringsAreAcceptedExactlyWhenTheyAreValidUTF8() {
        var random = Random(state: 2026)
        var accepted = 0
        for _ in 0..<3000 {
            var content: [UInt8] = []
            for _ in 0..<random.below(12) { content += Self.pieces[random.below(Self.pieces.count)] }
            let valid = String(validating: content, as: UTF8.self)
            let document = Array("[\"".utf8) + content + Array("\"]".utf8)
            let chunk = 1 + random.below(7)
            for chunks in [[], [1], [chunk, 3]] {
                let outcome = parseJSON(document, chunks: chunks)
                if let valid {
                    #expect(outcome == ParseOutcome(events: ["[", "string \"\(valid)\"", "]"], error: nil))
                } else {
                    #expect(outcome.error?.contains("invalid UTF-8 in a string") == true,
                            "\(content) chunks \(chunks): \(outcome.error ?? "accepted")")
                }
            }
            if valid != nil { accepted += 1 }
        }
        #expect(accepted > 300 && accepted < 2700)
    }
}

/// The helpers a delegate reads borrowed bytes with.
@Suite struct JSONTextHelperTests {
    final class Keeper: JSONStreamDelegate {
        var kept: [UInt8] = []
        var arrays: [[UInt8]] = []
        var matches: [Bool] = []
        func startObject(parser: JSONPushParser) throws {}
        func endObject(parser: JSONPushParser) throws {}
        func startArray(parser: JSONPushParser) throws {}
        func endArray(parser: JSONPushParser) throws {}
        func key(_ key: Span<UInt8>, parser: JSONPushParser) throws {
            matches.append(key.elementsEqual("@odata.nextLink"))
            matches.append(key.elementsEqual(Array("value".utf8)))
        }
        func string(_ value: Span<UInt8>, parser: JSONPushParser) throws {
            kept.append(span: value)
            arrays.append(value.byteArray)
        }
        func number(_ text: Span<UInt8>, parser: JSONPushParser) throws { kept.append(span: text) }
        func boolean(_ value: Bool, parser: JSONPushParser) throws {}
        func null(parser: JSONPushParser) throws {}
    }

    @Test func spansCompareAndCopyWithoutStrings() throws {
        let keeper = Keeper()
        let parser = try JSONPushParser(delegate: keeper)
        try parser.feed(Array("{\"value\": [\"é\", 3.10], \"@odata.nextLink\": \"p2\"}".utf8)[...])
        try parser.finish()
        #expect(keeper.matches == [false, true, true, false])
        #expect(String(decoding: keeper.kept, as: UTF8.self) == "é3.10p2")
        #expect(keeper.arrays == [Array("é".utf8), Array("p2".utf8)])
    }
}
