import Testing
@testable import MLSFeed

/// Text is cleaned the same on the fast path (nothing to do, decided in one pass over the bytes) and the slow one.
@Suite struct TextCleanerTests {
    @Test(arguments: [
        ("plain", "plain", 0), ("", "", 0), ("  padded\t", "padded", 0), ("a\u{0}b", "ab", 1),
        ("\u{7F}x\u{1}", "x", 2), ("in\tside\nkept\r", "in\tside\nkept", 0), ("é", "é", 0), ("  ", "", 0),
        ("\u{A0}nbsp\u{A0}", "nbsp", 0), ("\u{2003}", "", 0), ("x\u{2003}", "x", 0), ("\u{1B}[1m bold", "[1m bold", 1),
        ("12.5", "12.5", 0), ("Ünï 🏠", "Ünï 🏠", 0),
    ])
    func clean(raw: String, text: String, removed: Int) {
        let cleaned = TextCleaner.clean(raw)
        #expect(cleaned.text == text)
        #expect(cleaned.removed == removed)
    }
}
