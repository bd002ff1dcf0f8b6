import Testing
@testable import MLSFeed

/// `ContentHash.of` is stored with every row (`content_hash`): its output must never move, or every stored row looks
/// changed to the next run. The expected hex digits come from an independent reimplementation of the hash (Python,
/// from its definition), not from this code.
@Suite struct ContentHashTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let entity: Entity
        let columns: [Value?]
        let extra: [RawField]
        let absent: UInt64
        let extraJSON: [UInt8]?
        let hex: String
        var testDescription: String { name }
    }

    static let everyType: [Value?] = [
        .text("A1"), nil, .integer(549_000), .decimal("549000.5"), .date("2024-01-02"),
        .timestamp("2014-07-29T17:46:37.263Z"), .double(-117.1625), .boolean(true), .boolean(false), .text(""),
        .text("Straße Nº 12 – ünïcode"), .text("12345678"), .integer(-7),
    ]

    static let cases: [Case] = [
        Case(name: "every type, text of 0 to 27 bytes, extra fields", entity: .listing, columns: everyType,
             extra: [RawField("Pool", "Yes"), RawField("HOA_Fee_Monthly_Amount", "125")], absent: 0, extraJSON: nil,
             hex: "45a09f8ff7601ed7cf72b41971d950af"),
        Case(name: "absent mask and extra JSON", entity: .listing, columns: Array(everyType.prefix(3)), extra: [],
             absent: 0b1010, extraJSON: Array(#"{"a":[1,2]}"#.utf8), hex: "4d75df4d1819a3f866590fd6a12e0f2d"),
        Case(name: "a column added after the first release counts only with a value", entity: .listing,
             columns: [.text("L9")] + [Value?](repeating: nil, count: 32) + [.text("X")], extra: [], absent: 0,
             extraJSON: nil, hex: "0172408db6c3a48741bb389f168deac7"),
        Case(name: "agent", entity: .agent,
             columns: [.text("AG1")] + [Value?](repeating: nil, count: 8) + [.text("a@b.example")], extra: [],
             absent: 0, extraJSON: nil, hex: "2fdec81d1aa43bdfe628a63ee25a0975"),
        Case(name: "nothing", entity: .listing, columns: [], extra: [], absent: 0, extraJSON: nil,
             hex: "877e6f26802d8e1b9e6e3515889dc690"),
    ]

    @Test(arguments: cases) func hexIsStable(_ c: Case) {
        #expect(ContentHash.of(c.entity, columns: c.columns, extra: c.extra, absent: c.absent,
                               extraJSON: c.extraJSON) == c.hex)
    }

    /// Every tail length (0 to 7 bytes after the whole words) of a run of bytes hashes apart from its neighbours.
    @Test func everyTailLengthCounts() {
        let bytes = Array("abcdefghijklmnopq".utf8)
        var seen: Set<String> = []
        for n in 0...bytes.count {
            var hash = ContentHash()
            bytes.prefix(n).withUnsafeBytes { hash.update($0) }
            seen.insert(hash.finalize())
        }
        #expect(seen.count == bytes.count + 1)
    }
}
