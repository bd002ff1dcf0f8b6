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
        for bytes in Self.texts(around: byte, count: 200) {
            for lower in 0...bytes.count {
                for upper in lower...bytes.count {
                    let expected = bytes[lower..<upper].count(where: { $0 == byte })
                    #expect(DelimitedText.count(byte, in: bytes, lower..<upper) == expected)
                }
            }
        }
    }

    /// A one-byte delimiter within a range of the bytes, and with fewer fields than the text holds.
    @Test(arguments: [
        ("a|b|c", 0..<5, Int.max, ["a", "b", "c"]),
        ("|a||", 0..<4, Int.max, ["", "a", "", ""]),
        ("", 0..<0, Int.max, [""]),
        ("xx|yy|zz", 3..<8, Int.max, ["yy", "zz"]),
        ("xx|yy|zz", 2..<2, Int.max, [""]),
        ("no separator", 0..<12, Int.max, ["no separator"]),
        ("a|b|c", 0..<5, 2, ["a", "b"]),
        ("a|b|c", 0..<5, 3, ["a", "b", "c"]),
        ("a|b|c", 0..<5, 4, ["a", "b", "c"]),
        ("a|b|c", 0..<5, 1, ["a"]),
        ("a|b|c", 0..<5, 0, []),
        ("", 0..<0, 1, [""]),
        ("0123456|89|bcdef|", 0..<17, Int.max, ["0123456", "89", "bcdef", ""]),
        ("0123456|89|bcdef|", 1..<16, 2, ["123456", "89"]),
    ] as [(String, Range<Int>, Int, [String])])
    func splitsARangeOnOneByte(text: String, range: Range<Int>, maxFields: Int, fields: [String]) {
        let bytes = Array(text.utf8)
        var found: [String] = []
        DelimitedText.forEachField(bytes, range, delimiter: Array("|".utf8), maxFields: maxFields) {
            found.append(DelimitedText.string(bytes, $0))
        }
        #expect(found == fields)
    }

    /// Split eight bytes at a time, a one-byte delimiter gives the fields a byte-by-byte split gives, at every
    /// start and end of texts with delimiters at each place of a word and bytes one bit away from them.
    @Test(arguments: [UInt8(0x09), 0x7C, 0x80, 0xFF])
    func splitsOnOneByteAsByteByByte(byte: UInt8) {
        for bytes in Self.texts(around: byte, count: 100) {
            for lower in 0...bytes.count {
                for upper in lower...bytes.count {
                    var expected: [Range<Int>] = []
                    var start = lower
                    for index in lower..<upper where bytes[index] == byte {
                        expected.append(start..<index)
                        start = index + 1
                    }
                    expected.append(start..<upper)
                    for maxFields in [Int.max, 1, 2, 3] {
                        var found: [Range<Int>] = []
                        DelimitedText.forEachField(bytes, lower..<upper, delimiter: [byte], maxFields: maxFields) {
                            found.append($0)
                        }
                        #expect(found == Array(expected.prefix(maxFields)))
                    }
                }
            }
        }
    }

    /// `count` random texts of 0 to 40 bytes: `byte` (a quarter of them), bytes one bit away from it, and bytes with
    /// and without the high bit.
    static func texts(around byte: UInt8, count: Int) -> [[UInt8]] {
        var generator = SystemRandomNumberGenerator()
        let neighbours: [UInt8] = [byte, byte, byte ^ 1, byte ^ 0x80, byte &+ 1, byte &- 1, 0x00, 0x7F, 0x80, 0xFF]
        return (0..<count).map { _ in
            (0..<Int.random(in: 0...40, using: &generator)).map { _ in neighbours.randomElement(using: &generator)! }
        }
    }
}
