import Testing
@testable import MLSFeed
@testable import MLSFeedFixtures

@Suite struct DedupeWindowTests {
    @Test func newerTimestampWinsInEitherOrder() {
        var window = DedupeWindow(capacity: 10)
        #expect(window.offer(key: "1", timestamp: "2026-11-01T00:00:00Z", ordinal: 0) == .keep)
        #expect(window.offer(key: "1", timestamp: "2026-11-02T00:00:00Z", ordinal: 1) == .supersede)
        #expect(window.offer(key: "2", timestamp: "2026-11-02T00:00:00Z", ordinal: 2) == .keep)
        #expect(window.offer(key: "2", timestamp: "2026-11-01T00:00:00Z", ordinal: 3) == .drop)
        #expect(window.dropped == 1)
        #expect(window.superseded == 1)
    }

    @Test func tiesGoToTheLaterRecord() {
        var window = DedupeWindow(capacity: 10)
        #expect(window.offer(key: "1", timestamp: "2026-11-01T00:00:00Z", ordinal: 4) == .keep)
        #expect(window.offer(key: "1", timestamp: "2026-11-01T00:00:00Z", ordinal: 9) == .supersede)
        #expect(window.offer(key: "1", timestamp: nil, ordinal: 12) == .drop)
    }

    /// A superseding copy gives back the tag of the copy it replaced (the latest kept one), and only then.
    @Test func aSupersedeGivesBackTheReplacedCopysTag() {
        var window = DedupeWindow(capacity: 10)
        #expect(window.offer(key: "1", timestamp: "2026-11-01T00:00:00Z", ordinal: 0, tag: 7) == .keep)
        #expect(window.offer(key: "2", timestamp: nil, ordinal: 1, tag: 8) == .keep)
        #expect(window.offer(key: "1", timestamp: "2026-11-02T00:00:00Z", ordinal: 2, tag: 9) == .supersede)
        #expect(window.supersededTag == 7)
        #expect(window.offer(key: "1", timestamp: "2026-10-01T00:00:00Z", ordinal: 3, tag: 10) == .drop)
        #expect(window.supersededTag == 7)
        #expect(window.offer(key: "1", timestamp: "2026-11-03T00:00:00Z", ordinal: 4, tag: 11) == .supersede)
        #expect(window.supersededTag == 9)
        #expect(window.offer(key: "2", timestamp: nil, ordinal: 5, tag: 12) == .supersede)
        #expect(window.supersededTag == 8)
    }

    @Test(arguments: [
        // (t, ordinal, over t0, ordinal0, wins)
        ("2026-01-02T00:00:00Z", 1, "2026-01-01T00:00:00Z", 2, true),
        ("2026-01-01T00:00:00Z", 2, "2026-01-02T00:00:00Z", 1, false),
        ("2026-01-01T00:00:00Z", 2, "2026-01-01T00:00:00Z", 1, true),
        ("2026-01-01T00:00:00Z", 1, "2026-01-01T00:00:00Z", 2, false),
        ("2026-01-01T00:00:00.000001Z", 1, "2026-01-01T00:00:00Z", 2, true),
        ("1969-12-31T23:59:59.9Z", 2, "1970-01-01T00:00:00Z", 1, false),
    ] as [(String?, Int, String?, Int, Bool)])
    func winsRule(t: String?, o: Int, t0: String?, o0: Int, expected: Bool) {
        #expect(DedupeWindow.wins(t, o, over: t0, o0) == expected)
    }

    @Test func aFractionOfASecondIsNewerThanTheWholeSecond() {
        var window = DedupeWindow(capacity: 10)
        #expect(window.offer(key: "1", timestamp: "2014-07-29T17:46:37.5Z", ordinal: 0) == .keep)
        #expect(window.offer(key: "1", timestamp: "2014-07-29T17:46:37Z", ordinal: 1) == .drop)
        #expect(window.offer(key: "1", timestamp: "2014-07-29T17:46:37.55Z", ordinal: 2) == .supersede)
    }

    /// Microseconds since 1970 of canonical text agree with coercion's own writing, and their order with the text
    /// order of `Value.timestamp(_:precedes:)`, across years, fractions of every length and times before 1970.
    @Test(arguments: [
        (0, 0), (1, 0), (59, 500_000), (86_399, 999_998), (-1, 0), (-86_400 * 365 * 150, 120_000),
        (1_780_327_297, 432_000), (1_780_327_297, 432_100), (1_780_327_297, 7), (7_258_118_399, 999_990),
    ])
    func instantsOfCanonicalText(seconds: Int, microseconds: Int) {
        let text = Coercion.formatTimestamp(seconds, microseconds: microseconds)
        #expect(DedupeWindow.instant(text) == Int64(seconds) * 1_000_000 + Int64(microseconds))
        let later = Coercion.formatTimestamp(seconds, microseconds: microseconds + 1)
        #expect(Value.timestamp(text, precedes: later))
        #expect(DedupeWindow.instant(text) < DedupeWindow.instant(later))
    }

    @Test(arguments: ["", "2026-01-01", "2026-01-01T00:00:00", "2026-01-01T00:00:00.Z", "2026-01-01T00:00:00.1234567Z",
                      "2026-01-01 00:00:00Z", "2026-0x-01T00:00:00Z"])
    func otherTextIsNoTimestamp(text: String) {
        #expect(DedupeWindow.instant(text) == Int64.min)
    }

    @Test func missingTimestampIsOldest() {
        #expect(DedupeWindow.wins("2020-01-01T00:00:00Z", 0, over: nil, 5))
        #expect(!DedupeWindow.wins(nil, 9, over: "2020-01-01T00:00:00Z", 5))
        #expect(DedupeWindow.wins(nil, 9, over: nil, 5))
    }

    /// The window against a plain model (a list of keys by last arrival) on random feeds: same decisions, same counts.
    @Test(arguments: [1, 2, 3, 7, 31, 64, 200])  // 31: 32 keys in 64 slots, so runs of slots wrap the end
    func decidesAsTheModelDoes(capacity: Int) {
        var random = FixtureRandom(seed: UInt64(capacity))
        var window = DedupeWindow(capacity: capacity)
        var model: [(key: String, instant: Int, ordinal: Int)] = []
        for ordinal in 0..<20_000 {
            let key = "L\(random.next() % UInt64(capacity * 3 + 2))"
            let second = Int(random.next() % 4)
            let timestamp = random.next() % 8 == 0 ? nil : "2026-11-01T00:00:0\(second)Z"
            let instant = timestamp == nil ? -1 : second
            let expected: DedupeWindow.Decision
            if let at = model.firstIndex(where: { $0.key == key }) {
                let kept = model[at]
                if instant != kept.instant ? instant > kept.instant : ordinal > kept.ordinal {
                    model.remove(at: at)
                    model.append((key, instant, ordinal))
                    expected = .supersede
                } else {
                    expected = .drop
                }
            } else {
                model.append((key, instant, ordinal))
                if model.count > capacity { model.removeFirst() }
                expected = .keep
            }
            #expect(window.offer(key: key, timestamp: timestamp, ordinal: ordinal) == expected, "record \(ordinal)")
        }
        #expect(window.storedEntries <= capacity + capacity / 4 + 16)
    }

    /// One key superseded a million times (no eviction ever runs) keeps the stored entries bounded.
    @Test func supersedesDoNotGrowTheStorage() {
        var window = DedupeWindow(capacity: 1_000)
        _ = window.offer(key: "first", timestamp: nil, ordinal: 0)
        for ordinal in 1...1_000_000 {
            #expect(window.offer(key: "again", timestamp: nil, ordinal: ordinal) == (ordinal == 1 ? .keep : .supersede))
        }
        #expect(window.storedEntries <= 1_266)
        #expect(window.offer(key: "first", timestamp: nil, ordinal: 1_000_001) == .supersede)
    }

    @Test func memoryIsBoundedByCapacity() {
        var window = DedupeWindow(capacity: 3)
        for i in 0..<100 { _ = window.offer(key: "k\(i)", timestamp: nil, ordinal: i) }
        // k0 left the window long ago: a late copy passes on and the database resolves it.
        #expect(window.offer(key: "k0", timestamp: nil, ordinal: 100) == .keep)
        // k99 is still in the window: a copy with the same timestamp and a later ordinal supersedes it.
        #expect(window.offer(key: "k99", timestamp: nil, ordinal: 101) == .supersede)
    }
}
