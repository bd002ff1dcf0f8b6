import Testing
@testable import MLSFeed

@Suite struct DelimitedTextTests {
    /// One-byte delimiters split with `memchr` (XMLStream), longer ones here; both stop after `maxFields`.
    @Test(arguments: [
        ("a|b|c", "|", Int.max, ["a", "b", "c"]),
        ("a|b|c", "|", 2, ["a", "b"]),
        ("a||b||c", "||", Int.max, ["a", "b", "c"]),
        ("a||b||c", "||", 2, ["a", "b"]),
        ("a||b||c", "||", 3, ["a", "b", "c"]),
        ("a||b||c", "||", 0, []),
        ("||a|||", "||", Int.max, ["", "a", "|"]),
        ("", "||", Int.max, [""]),
        ("", "||", 1, [""]),
    ] as [(String, String, Int, [String])])
    func splitsOnTheDelimiter(text: String, delimiter: String, maxFields: Int, fields: [String]) {
        let bytes = Array(text.utf8)
        var found: [String] = []
        DelimitedText.forEachField(bytes, 0..<bytes.count, delimiter: Array(delimiter.utf8), maxFields: maxFields) {
            found.append(DelimitedText.string(bytes, $0))
        }
        #expect(found == fields)
    }

    /// The count eight bytes at a time equals a byte-by-byte one, at every start and length of texts with the byte
    /// at each place of a word, next to bytes one bit away from it and to high bytes (no carry between bytes).
    @Test(arguments: [UInt8(0x09), 0x7C, 0x00, 0x80, 0xFF])
    func countsTheByteEightAtATime(byte: UInt8) {
        var generator = SystemRandomNumberGenerator()
        let neighbours: [UInt8] = [byte, byte ^ 1, byte ^ 0x80, byte &+ 1, byte &- 1, 0x00, 0x7F, 0x80, 0xFF, 0x41]
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                neighbours.randomElement(using: &generator)!
            }
            for lower in 0...bytes.count {
                for upper in lower...bytes.count {
                    let expected = bytes[lower..<upper].count(where: { $0 == byte })
                    #expect(DelimitedText.count(byte, in: bytes, lower..<upper) == expected)
                }
            }
        }
    }
}
