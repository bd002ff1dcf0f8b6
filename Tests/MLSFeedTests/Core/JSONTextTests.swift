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

    @Test func objectKeepsOrderAndGroupsRepeats() {
        let fields = [RawField("pool", "Y"), RawField("view", "Ocean"), RawField("view", "City"), RawField("apn", "1")]
        #expect(JSONText.object(fields) == #"{"pool":"Y","view":["Ocean","City"],"apn":"1"}"#)
    }

    @Test func pairsKeepEverything() {
        #expect(JSONText.pairs([RawField("a", ""), RawField("a", "x")]) == #"[["a",""],["a","x"]]"#)
    }
}
