import Testing
@testable import MLSFeed

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

    @Test(arguments: [
        // (t, ordinal, over t0, ordinal0, wins)
        ("b", 1, "a", 2, true), ("a", 2, "b", 1, false), ("a", 2, "a", 1, true), ("a", 1, "a", 2, false),
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

    @Test func missingTimestampIsOldest() {
        #expect(DedupeWindow.wins("2020-01-01T00:00:00Z", 0, over: nil, 5))
        #expect(!DedupeWindow.wins(nil, 9, over: "2020-01-01T00:00:00Z", 5))
        #expect(DedupeWindow.wins(nil, 9, over: nil, 5))
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
