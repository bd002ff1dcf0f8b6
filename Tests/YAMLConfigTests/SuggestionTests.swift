import Testing
@testable import YAMLConfig

@Suite struct SuggestionTests {
    @Test(arguments: [
        ("", "", 0), ("lod", "load", 1), ("kitten", "sitting", 3), ("abc", "", 3), ("tagret", "target", 2),
    ])
    func editDistance(lhs: String, rhs: String, expected: Int) {
        #expect(Suggestion.editDistance(lhs, rhs) == expected)
    }

    @Test(arguments: [
        ("lod", "load"),
        ("Load", "load"),
        ("batch", "batch_size"),
        ("loa", "load"),
        ("fech", "fetch"),
        ("batch_sizes_total", "batch_size"),
        ("zzzzzzz", nil),
    ] as [(String, String?)])
    func closest(key: String, expected: String?) {
        #expect(Suggestion.closest(to: key, among: ["fetch", "load", "batch_size"]) == expected)
    }
}
