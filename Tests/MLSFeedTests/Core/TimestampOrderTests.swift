import Testing
@testable import MLSFeed

/// Canonical timestamps gain fraction digits only when non-zero, so their byte order is not time order
/// (`…:37.5Z` < `…:37Z` as bytes): every Swift-side comparison goes through `Value.timestamp(_:precedes:)`.
@Suite struct TimestampOrderTests {
    @Test(arguments: [
        ("2014-07-29T17:46:37Z", "2014-07-29T17:46:37.5Z", true),
        ("2014-07-29T17:46:37.5Z", "2014-07-29T17:46:37Z", false),
        ("2014-07-29T17:46:37.25Z", "2014-07-29T17:46:37.5Z", true),
        ("2014-07-29T17:46:37.5Z", "2014-07-29T17:46:37.55Z", true),
        ("2014-07-29T17:46:37.05Z", "2014-07-29T17:46:37.5Z", true),
        ("2014-07-29T17:46:37.999999Z", "2014-07-29T17:46:38Z", true),
        ("2014-07-29T17:46:36.9Z", "2014-07-29T17:46:37Z", true),
        ("2014-07-29T17:46:37Z", "2014-07-29T17:46:36.9Z", false),
        ("2014-07-29T17:46:37.263Z", "2014-07-29T17:46:37.263Z", false),
        ("2014-07-29T17:46:37Z", "2014-07-29T17:46:37Z", false),
        ("2013-12-31T23:59:59.9Z", "2014-01-01T00:00:00Z", true),
    ])
    func precedes(a: String, b: String, expected: Bool) {
        #expect(Value.timestamp(a, precedes: b) == expected)
    }

    /// Formatted instants compare exactly as their numbers do, and plain byte order would get some of them wrong.
    @Test func orderOfFormattedInstantsIsTimeOrder() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let base = 1_406_655_997
        // Few distinct seconds and many whole ones, so equal seconds with and without fractions meet often.
        let instants = (0..<400).map { _ in
            (base + next(3), next(3) == 0 ? 0 : [500_000, 250_000, 1, 999_999, 120_000, next(1_000_000)][next(6)])
        }
        var lexicalMistakes = 0
        for (s1, m1) in instants {
            for (s2, m2) in instants {
                let a = Coercion.formatTimestamp(s1, microseconds: m1)
                let b = Coercion.formatTimestamp(s2, microseconds: m2)
                let before = (s1, m1) < (s2, m2)
                #expect(Value.timestamp(a, precedes: b) == before, "\(a) vs \(b)")
                if (a < b) != before { lexicalMistakes += 1 }
            }
        }
        #expect(lexicalMistakes > 0)
    }
}
