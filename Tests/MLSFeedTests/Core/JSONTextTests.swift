import Testing
@testable import MLSFeed

@Suite struct JSONTextTests {
    @Test(arguments: [
        ("plain", "\"plain\""), ("say \"hi\"", "\"say \\\"hi\\\"\""), ("a\\b", "\"a\\\\b\""),
        ("line\nbreak\ttab", "\"line\\nbreak\\ttab\""), ("\u{0B}", "\"\\u000b\""), ("é—🏠", "\"é—🏠\""),
    ])
    func string(raw: String, expected: String) {
        #expect(JSONText.string(raw) == expected)
    }

    /// Bytes that are not UTF-8 (a CDATA section libxml2 passed through after an encoding error; found by the
    /// xml-plain fuzz target) become U+FFFD: the text stays a JSON string that parses.
    @Test(arguments: [
        ([0x61, 0xC2, 0x9D, 0xC1, 0x9D, 0x62] as [UInt8], "a\u{9D}\u{FFFD}\u{FFFD}b"),
        ([0xFF, 0x22], "\u{FFFD}\\\""), ([0xE6, 0x9D], "\u{FFFD}"), ([0xC3, 0xA9, 0x80], "é\u{FFFD}"),
    ])
    func bytesThatAreNotUTF8BecomeReplacementCharacters(bytes: [UInt8], expected: String) {
        var out: [UInt8] = []
        bytes.withUnsafeBufferPointer { JSONText.appendEscaped($0, to: &out) }
        #expect(String(validating: out, as: UTF8.self) == expected)
    }

    @Test func objectKeepsOrderAndGroupsRepeats() {
        let fields = [RawField("pool", "Y"), RawField("view", "Ocean"), RawField("view", "City"), RawField("apn", "1")]
        #expect(JSONText.object(fields) == #"{"pool":"Y","view":["Ocean","City"],"apn":"1"}"#)
    }

    /// The writer remembers a repeat-free key list; lists after it (subsets, repeats, new keys) still come out
    /// exactly as `object` writes each alone.
    @Test func objectWriterGivesWhatObjectGivesWhateverCameBefore() {
        let lists: [[RawField]] = [
            [RawField("a", "1"), RawField("b", "2"), RawField("c", "3")],
            [RawField("a", "1"), RawField("c", "3")],
            [RawField("c", "3"), RawField("a", "1")],
            [RawField("a", "1"), RawField("a", "2")],
            [RawField("a", "1"), RawField("b", "2"), RawField("b", "3")],
            [],
            [RawField("b", "x")],
            [RawField("d", "4"), RawField("a", "5"), RawField("d", "6")],
        ]
        var writer = JSONText.ObjectWriter()
        var stored = JSONText.ObjectWriter(order: .storage)
        var out: [UInt8] = []
        for fields in lists + lists.reversed() {
            out.removeAll()
            writer.append(fields, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == JSONText.object(fields))
            // In storage order: the same object with its keys sorted as jsonb sorts them (repeats keep their order).
            let sorted = fields.enumerated().sorted {
                JSONText.storedBefore($0.element.key, $1.element.key)
                    || ($0.element.key == $1.element.key && $0.offset < $1.offset)
            }.map(\.element)
            out.removeAll()
            stored.append(fields, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == JSONText.object(sorted))
        }
        out.removeAll()
        writer.append(lists[4], to: &out)
        #expect(String(decoding: out, as: UTF8.self) == #"{"a":"1","b":["2","3"]}"#)
    }

    /// In storage order the keys come out as jsonb stores them (shorter in UTF-8 bytes first, then by bytes),
    /// whatever list came before; repeats still group into arrays.
    @Test(arguments: [
        ([RawField("bb", "1"), RawField("a", "2"), RawField("ab", "3"), RawField("c", "4")],
         #"{"a":"2","c":"4","ab":"3","bb":"1"}"#),
        ([RawField("bb", "1"), RawField("a", "2")], #"{"a":"2","bb":"1"}"#),
        ([RawField("é", "1"), RawField("zz", "2"), RawField("z", "3")], #"{"z":"3","zz":"2","é":"1"}"#),
        ([RawField("bb", "1"), RawField("a", "2"), RawField("bb", "3")], #"{"a":"2","bb":["1","3"]}"#),
        ([RawField("ab", "x")], #"{"ab":"x"}"#),
        ([RawField("q\"", "a\nb"), RawField("a", "x\\")], #"{"a":"x\\","q\"":"a\nb"}"#),
        ([], "{}"),
    ])
    func storageOrderIsJSONBsOrder(fields: [RawField], expected: String) {
        var writer = JSONText.ObjectWriter(order: .storage)
        var out: [UInt8] = []
        // A key list remembered first, of which some lists are subsequences.
        writer.append([RawField("bb", "0"), RawField("a", "0"), RawField("ab", "0"), RawField("c", "0")], to: &out)
        out.removeAll()
        writer.append(fields, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == expected)
        out.removeAll()
        writer.append(fields, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == expected)
    }

    /// The writer's remembered key list grows to hold both lists when their orders agree.
    @Test(arguments: [
        (["a", "b", "d"], ["a", "c", "d"], ["a", "c", "b", "d"] as [String]?),
        (["a", "b"], ["b", "c"], ["a", "b", "c"]), ([], ["a", "b"], ["a", "b"]), (["a", "b"], [], ["a", "b"]),
        (["x", "y"], ["y", "x"], nil), (["x", "y", "z"], ["z", "x"], nil),
    ])
    func unionKeepsBothOrders(a: [String], b: [String], expected: [String]?) {
        #expect(JSONText.union(a, b) == expected)
    }

    @Test func pairsKeepEverything() {
        #expect(JSONText.pairs([RawField("a", ""), RawField("a", "x")]) == #"[["a",""],["a","x"]]"#)
    }

    /// The eight-bytes-at-a-time plain test agrees with a byte at a time for every byte value at every place of
    /// buffers of lengths around the word size, among plain bytes at the edges of the plain range and between.
    @Test(arguments: [1, 7, 8, 9, 16, 17], [0x20, 0x61, 0x7F] as [UInt8])
    func plainTextIsFoundWordAtATimeExactly(length: Int, filler: UInt8) {
        for place in 0..<length {
            for value in 0...255 {
                var bytes = [UInt8](repeating: filler, count: length)
                bytes[place] = UInt8(value)
                let expected = value >= 0x20 && value < 0x80 && value != 0x22 && value != 0x5C
                #expect(bytes.withUnsafeBufferPointer { JSONText.isPlain($0) } == expected,
                        "byte \(value) at \(place) of \(length)")
            }
        }
        #expect([UInt8]().withUnsafeBufferPointer { JSONText.isPlain($0) })
    }
}
