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
}
