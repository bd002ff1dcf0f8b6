import Testing
@testable import MLSFeed
@testable import MLSFeedFixtures

@Suite struct GenerateClockTests {
    static func local(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int) -> Int {
        FixtureClock.days(y, mo, d) * 86400 + h * 3600 + mi * 60 + s
    }

    @Test(arguments: [
        (local(2026, 11, 28, 1, 59, 3), "2026-11-28T01:59:03", "11/28/2026 01:59:03 AM", "2026-11-28T09:59:03Z"),
        (local(2026, 7, 4, 12, 0, 0), "2026-07-04T12:00:00", "07/04/2026 12:00:00 PM", "2026-07-04T19:00:00Z"),
        (local(2026, 3, 8, 1, 30, 0), "2026-03-08T01:30:00", "03/08/2026 01:30:00 AM", "2026-03-08T09:30:00Z"),
        (local(2026, 3, 8, 3, 30, 0), "2026-03-08T03:30:00", "03/08/2026 03:30:00 AM", "2026-03-08T10:30:00Z"),
        (local(2026, 11, 1, 0, 30, 0), "2026-11-01T00:30:00", "11/01/2026 12:30:00 AM", "2026-11-01T07:30:00Z"),
        (local(2026, 11, 1, 3, 0, 0), "2026-11-01T03:00:00", "11/01/2026 03:00:00 AM", "2026-11-01T11:00:00Z"),
        (local(2025, 12, 31, 23, 59, 59), "2025-12-31T23:59:59", "12/31/2025 11:59:59 PM", "2026-01-01T07:59:59Z"),
    ])
    func localTimesAndUTC(local: Int, iso: String, us: String, utc: String) {
        #expect(FixtureClock.isoLocal(local) == iso)
        #expect(FixtureClock.usLocal(local) == us)
        #expect(FixtureClock.utc(local) == utc)
    }

    @Test func daysRoundTrip() {
        for day in stride(from: -1000, to: 30000, by: 37) {
            let c = FixtureClock.civil(day)
            #expect(FixtureClock.days(c.year, c.month, c.day) == day)
        }
        #expect(FixtureClock.weekday(FixtureClock.days(2026, 11, 29)) == 0)
        #expect(FixtureClock.nearSwitch(Self.local(2026, 11, 1, 1, 15, 0)))
        #expect(!FixtureClock.nearSwitch(Self.local(2026, 11, 2, 1, 15, 0)))
    }
}
