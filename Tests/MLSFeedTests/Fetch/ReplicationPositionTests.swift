import Testing
@testable import MLSFeed

extension FetchTests {
    /// The rule that decides what a replication run asks for and where it leaves the resource, without a server.
    @Suite struct ReplicationPositionTests {
        typealias Position = ReplicationPosition

        static let replication: WebAPISettings.Replication = {
            var settings = WebAPISettings.Replication(field: "ModificationTimestamp", start: "2026-01-01T00:00:00Z")
            settings.key = "ListingKey"
            return settings
        }()

        @Test(arguments: [
            // Never run: from replication.start.
            (nil, "ModificationTimestamp ge 2026-01-01T00:00:00Z"),
            // Caught up: the overlap (5 minutes) before the last record, with ge.
            (Position(timestamp: "2026-11-05T10:00:00Z", key: "K5", caughtUp: true),
             "ModificationTimestamp ge 2026-11-05T09:55:00.000000Z"),
            (Position(timestamp: "2026-11-05T10:00:00.000000Z", key: nil, caughtUp: true),
             "ModificationTimestamp ge 2026-11-05T09:55:00.000000Z"),
            // Across midnight, the year and a fraction.
            (Position(timestamp: "2027-01-01T00:02:00.25Z", key: "K1", caughtUp: true),
             "ModificationTimestamp ge 2026-12-31T23:57:00.250000Z"),
            // Stopped early: strictly after (timestamp, key), in the order the requests ask for.
            (Position(timestamp: "2026-11-01T10:00:00Z", key: "K27", caughtUp: false),
             "(ModificationTimestamp gt 2026-11-01T10:00:00.000000Z) or (ModificationTimestamp eq "
                + "2026-11-01T10:00:00.000000Z and ListingKey gt 'K27')"),
            // A quote in a key is doubled in the OData literal.
            (Position(timestamp: "2026-11-01T10:00:00.5Z", key: "O'Neil-1", caughtUp: false),
             "(ModificationTimestamp gt 2026-11-01T10:00:00.500000Z) or (ModificationTimestamp eq "
                + "2026-11-01T10:00:00.500000Z and ListingKey gt 'O''Neil-1')"),
            // Stopped early without a key (kept before keys were): from the mark itself.
            (Position(timestamp: "2026-11-01T10:00:00Z", key: nil, caughtUp: false),
             "ModificationTimestamp ge 2026-11-01T10:00:00.000000Z"),
        ] as [(Position?, String)])
        func theFilterAPositionAsksFor(position: Position?, filter: String) {
            #expect(Position.filter(from: position, Self.replication) == filter)
        }

        @Test func withoutAStartTheFirstRunAsksForEverything() {
            var replication = Self.replication
            replication.start = nil
            #expect(Position.filter(from: nil, replication) == nil)
            replication.overlap = 0
            #expect(Position.filter(from: Position(timestamp: "2026-11-05T10:00:00Z", key: "K", caughtUp: true),
                                    replication) == "ModificationTimestamp ge 2026-11-05T10:00:00.000000Z")
        }

        @Test(arguments: [
            // A run that read to the end is caught up at its last record.
            (nil, ("2026-11-05T10:00:00Z", "K5"), true,
             Position(timestamp: "2026-11-05T10:00:00Z", key: "K5", caughtUp: true)),
            // One that stopped early is not, and the position is its last record, never beyond.
            (Position(timestamp: "2026-11-01T10:00:00Z", key: "K20", caughtUp: false), ("2026-11-01T10:00:00Z", "K40"),
             false, Position(timestamp: "2026-11-01T10:00:00Z", key: "K40", caughtUp: false)),
            // Re-reading the overlap may end before the old position: the position is still the last record read.
            (Position(timestamp: "2026-11-05T10:00:00Z", key: "K5", caughtUp: true), ("2026-11-05T09:58:00Z", "K9"),
             false, Position(timestamp: "2026-11-05T09:58:00Z", key: "K9", caughtUp: false)),
            // Nothing read: the position stays; reaching the end catches it up.
            (Position(timestamp: "2026-11-01T10:00:00Z", key: "K40", caughtUp: false), nil, true,
             Position(timestamp: "2026-11-01T10:00:00Z", key: "K40", caughtUp: true)),
            (Position(timestamp: "2026-11-01T10:00:00Z", key: "K40", caughtUp: true), nil, false,
             Position(timestamp: "2026-11-01T10:00:00Z", key: "K40", caughtUp: true)),
            (nil, nil, true, nil),
        ] as [(Position?, (String, String)?, Bool, Position?)])
        func whereARunLeavesIt(start: Position?, last: (String, String)?, reachedEnd: Bool, end: Position?) {
            let last = last.map { (timestamp: $0.0, key: $0.1) }
            #expect(Position.after(start, last: last, reachedEnd: reachedEnd) == end)
        }

        @Test(arguments: [
            ("2026-11-05T10:00:00Z", "2026-11-05T10:00:00.000000Z"),
            ("2026-11-05T10:00:00.1234567Z", "2026-11-05T10:00:00.123456Z"),
            ("1969-12-31T23:59:59.5Z", "1969-12-31T23:59:59.500000Z"),
        ])
        func timestampsRoundTrip(text: String, literal: String) throws {
            let microseconds = try #require(Position.microseconds(text))
            #expect(Position.literal(microseconds) == literal)
        }

        @Test(arguments: ["2026-11-05 10:00:00Z", "2026-11-05T10:00:00", "2026-13-05T10:00:00Z",
                          "2026-11-05T10:00:00.Z", "2026-11-05T10:00:00.1xZ", ""])
        func otherTextIsNoTimestamp(text: String) {
            #expect(Position.microseconds(text) == nil)
        }
    }
}
