import Foundation
import Testing
@testable import MLSFeed

@Suite struct CoercionTests {
    static let la = TimeZone(identifier: "America/Los_Angeles")!

    @Test(arguments: [
        ("$549,000", "549000"), ("549000", "549000"), ("549000.00", "549000"), ("$1,250,000", "1250000"),
        ("1.25M", "1250000"), ("549K", "549000"), ("12.5", "12.5"), ("$ 1,999.99", "1999.99"), ("0", "0"),
        ("100000.00", "100000"), ("3.000", "3"), ("2.5k", "2500"), ("1.25 M", "1250000"), ("$ 549 000", "549000"),
        ("$1.5M", "1500000"), ("1999.995", "2000"),
    ])
    func money(raw: String, expected: String) throws {
        #expect(try Coercion.money(raw) == expected)
    }

    @Test(arguments: ["call agent", "TBD", "$", "1.2.3", "M", "-5", "12,5O0", "1,85", "$1,25,000", "1,000.00,0"])
    func moneyFailures(raw: String) {
        #expect(throws: CoercionFailure("not a price")) { try Coercion.money(raw) }
    }

    @Test(arguments: [
        ("3", 3), ("2", 2), ("1,850", 1850), ("2.0", 2), ("-1", -1), ("12.0", 12), ("12.000", 12),
        ("1,234,567", 1_234_567), ("007", 7), ("-1,000", -1000), ("9223372036854775807", Int64.max),
    ] as [(String, Int64)])
    func integer(raw: String, expected: Int64) throws {
        #expect(try Coercion.integer(raw) == expected)
    }

    @Test(arguments: [
        "2.5", "12.5", "12.001", "12.0000001", "three", "3 beds", "", "1,85", "12,5", "1,2345", ",100", "1.000,0",
        "--1", "-", ".0", "12.0.0", "9223372036854775808", "1 850",
    ])
    func integerFailures(raw: String) {
        #expect(throws: CoercionFailure("not an integer")) { try Coercion.integer(raw) }
    }

    @Test(arguments: [
        ("1,850", "1850"), ("1850", "1850"), ("0.25", "0.25"), ("12.345", "12.35"), ("3.000", "3"),
        ("100000.00", "100000"), ("-3", "-3"), ("-12.345", "-12.35"), ("1,234.5", "1234.5"),
    ])
    func decimal(raw: String, expected: String) throws {
        #expect(try Coercion.decimal(raw) == expected)
    }

    @Test(arguments: ["1,85", "abc", "1.2.3", "12,5", "1 850", "-"])
    func decimalFailures(raw: String) {
        #expect(throws: CoercionFailure("not a number")) { try Coercion.decimal(raw) }
    }

    @Test(arguments: [
        ("2026-03-04", DateOrder.mdy, "2026-03-04", false), ("03/04/2026", .mdy, "2026-03-04", false),
        ("3/4/2026", .mdy, "2026-03-04", false), ("2024-02-29", .mdy, "2024-02-29", false),
        ("04/03/2026", .dmy, "2026-03-04", false), ("22/01/2019", .dmy, "2019-01-22", false),
        ("2019/01/22", .ymd, "2019-01-22", false), ("2019-01-22", .dmy, "2019-01-22", false),
        // A timestamp at midnight is that date.
        ("2014-07-24T00:00:00.000", .mdy, "2014-07-24", false), ("2008-09-01 00:00:00", .mdy, "2008-09-01", false),
        ("03/04/2026 12:00:00 AM", .mdy, "2026-03-04", false), ("2014-07-24T00:00:00Z", .mdy, "2014-07-24", false),
        ("Thu, 21 Feb 2019 00:00:00 GMT", .mdy, "2019-02-21", false),
        ("22/01/2019 00:00", .dmy, "2019-01-22", false),
        // Any other time keeps the date as written, and says so.
        ("2008-09-01 10:30:00", .mdy, "2008-09-01", true), ("2014-07-24T00:00:00.001", .mdy, "2014-07-24", true),
        ("03/04/2026 12:00 PM", .mdy, "2026-03-04", true), ("2014-07-24T23:30:00-07:00", .mdy, "2014-07-24", true),
        ("22/01/2019 05:17:29 PM", .dmy, "2019-01-22", true),
    ])
    func date(raw: String, order: DateOrder, expected: String, hadTime: Bool) throws {
        let date = try Coercion.date(raw, order: order)
        #expect(date.date == expected)
        #expect(date.hadTime == hadTime)
    }

    @Test(arguments: [
        ("2026-02-30", DateOrder.mdy), ("13/01/2026", .mdy), ("2025-02-29", .mdy), ("March 4", .mdy),
        ("2026/03/04", .mdy), ("2026/03/04", .dmy), ("04-03-26", .mdy), ("2026-03-04T25:00", .mdy),
        ("22/01/2019", .mdy), ("01/22/2019", .dmy), ("22/01/2019", .ymd), ("2026-03", .mdy), ("20260304", .mdy),
    ])
    func dateFailures(raw: String, order: DateOrder) {
        #expect(throws: CoercionFailure("not a date")) { try Coercion.date(raw, order: order) }
    }

    @Test(arguments: [
        // Naive source-local times in Los Angeles: PST is UTC-8, PDT is UTC-7.
        ("2026-11-28T01:59:03", DateOrder.mdy, "2026-11-28T09:59:03Z"),
        ("11/28/2026 01:59:03 AM", .mdy, "2026-11-28T09:59:03Z"),
        ("11/28/2026 01:59:03 PM", .mdy, "2026-11-28T21:59:03Z"),
        ("11/28/2026 12:05:00 AM", .mdy, "2026-11-28T08:05:00Z"),
        ("11/28/2026 12:05:00 PM", .mdy, "2026-11-28T20:05:00Z"),
        ("11/28/2026 1:05 pm", .mdy, "2026-11-28T21:05:00Z"),
        ("2026-07-04 09:30", .mdy, "2026-07-04T16:30:00Z"),
        ("2026-07-04", .mdy, "2026-07-04T07:00:00Z"),
        ("01/22/2019 17:17", .mdy, "2019-01-23T01:17:00Z"),
        ("22/01/2019 05:17:29 PM", .dmy, "2019-01-23T01:17:29Z"),
        ("2019/01/22 17:17:29", .ymd, "2019-01-23T01:17:29Z"),
        // Fractions: kept to the microsecond, trailing zeros trimmed; all zeros is the whole second.
        ("2026-11-28T01:59:03.250", .mdy, "2026-11-28T09:59:03.25Z"),
        ("2014-07-29T17:46:37.263", .mdy, "2014-07-30T00:46:37.263Z"),
        ("2014-07-29 17:46:37.1", .mdy, "2014-07-30T00:46:37.1Z"),
        ("2014-07-29T17:46:37.000", .mdy, "2014-07-30T00:46:37Z"),
        ("2014-07-29T17:46:37.000001Z", .mdy, "2014-07-29T17:46:37.000001Z"),
        // The 7th digit and beyond round half to even.
        ("2014-07-29T17:46:37.2634567Z", .mdy, "2014-07-29T17:46:37.263457Z"),
        ("2014-07-29T17:46:37.2634564Z", .mdy, "2014-07-29T17:46:37.263456Z"),
        ("2014-07-29T17:46:37.2634565Z", .mdy, "2014-07-29T17:46:37.263456Z"),
        ("2014-07-29T17:46:37.2634575Z", .mdy, "2014-07-29T17:46:37.263458Z"),
        ("2014-07-29T17:46:37.263456501Z", .mdy, "2014-07-29T17:46:37.263457Z"),
        ("2019-12-31T23:59:59.9999995Z", .mdy, "2020-01-01T00:00:00Z"),
        ("2019-12-31T23:59:60Z", .mdy, "2019-12-31T23:59:59Z"),
        // Zones: explicit ones win over the source zone.
        ("2026-11-28T01:59:03Z", .mdy, "2026-11-28T01:59:03Z"),
        ("2026-11-28T01:59:03-05:00", .mdy, "2026-11-28T06:59:03Z"),
        ("2026-11-28T01:59:03+0530", .mdy, "2026-11-27T20:29:03Z"),
        ("2014-07-29 17:46:37.263+00", .mdy, "2014-07-29T17:46:37.263Z"),
        ("2019-02-21 23:40:21 UTC", .mdy, "2019-02-21T23:40:21Z"),
        ("2019-02-21t23:40:21z", .mdy, "2019-02-21T23:40:21Z"),
        ("2019-03-10T02:30:00-08:00", .mdy, "2019-03-10T10:30:00Z"),
        // RFC 1123 (CREA DDF, HTTP dates).
        ("Thu, 21 Feb 2019 23:40:21 GMT", .mdy, "2019-02-21T23:40:21Z"),
        ("thu, 21 feb 2019 23:40:21 utc", .mdy, "2019-02-21T23:40:21Z"),
        ("21 Feb 2019 23:40:21 +0100", .mdy, "2019-02-21T22:40:21Z"),
        ("Thu, 21 Feb 2019 15:40:21", .mdy, "2019-02-21T23:40:21Z"),
        ("Mon, 1 Jul 2019 08:00 GMT", .mdy, "2019-07-01T08:00:00Z"),
        // Daylight saving time ends 2019-11-03 02:00 PDT: 01:00-01:59 happens twice, the first (PDT) is taken.
        ("2019-11-03 00:59:59", .mdy, "2019-11-03T07:59:59Z"),
        ("2019-11-03 01:00:00", .mdy, "2019-11-03T08:00:00Z"),
        ("2019-11-03 01:30:00", .mdy, "2019-11-03T08:30:00Z"),
        ("11/03/2019 01:59:59 AM", .mdy, "2019-11-03T08:59:59Z"),
        ("2019-11-03 02:00:00", .mdy, "2019-11-03T10:00:00Z"),
        // It starts 2019-03-10 02:00 PST: the hour before and after exist.
        ("2019-03-10 01:59:59", .mdy, "2019-03-10T09:59:59Z"),
        ("2019-03-10 03:00:00", .mdy, "2019-03-10T10:00:00Z"),
    ])
    func timestamp(raw: String, order: DateOrder, expected: String) throws {
        #expect(try Coercion.timestamp(raw, zone: Self.la, order: order) == expected)
    }

    @Test(arguments: ["2019-03-10 02:00:00", "2019-03-10T02:30", "03/10/2019 02:59:59 AM", "2019-03-10 02:15:00.5"])
    func timestampInTheSkippedHour(raw: String) {
        #expect(throws: CoercionFailure("does not exist in America/Los_Angeles (skipped by daylight saving time)")) {
            try Coercion.timestamp(raw, zone: Self.la)
        }
    }

    @Test(arguments: [
        ("yesterday", DateOrder.mdy), ("2026-11-28T25:00:00", .mdy), ("11/28/2026 13:00 PM", .mdy),
        ("2026-11-28T01:61", .mdy), ("2019-02-21T23:40:21.1234567890Z", .mdy), ("2019-02-21T23:40:21.Z", .mdy),
        ("22/01/2019 05:17:29 PM", .mdy), ("2019/01/22 17:17", .mdy), ("Thu, 21 Foo 2019 23:40:21 GMT", .mdy),
        ("Xyz, 21 Feb 2019 23:40:21 GMT", .mdy), ("Thu 21 Feb 2019 23:40:21 GMT", .mdy),
        ("2019-02-21T23:40:21+25:00", .mdy), ("2019-02-21T23:40:21 EST", .mdy), ("2019-02-21T23:40:21+05:6", .mdy),
        ("Thu, 21 Feb 19 23:40:21 GMT", .mdy), ("2019-02-21T", .mdy), ("2019-02-21T23", .mdy),
    ])
    func timestampFailures(raw: String, order: DateOrder) {
        #expect(throws: CoercionFailure("not a timestamp")) { try Coercion.timestamp(raw, zone: Self.la, order: order) }
    }

    @Test func naiveTimestampNeedsZone() {
        #expect(throws: CoercionFailure("naive timestamp but the source has no time_zone")) {
            try Coercion.timestamp("2026-11-28T01:59:03", zone: nil)
        }
    }

    @Test(arguments: [
        ("Y", true), ("n", false), ("Yes", true), ("NO", false), ("1", true), ("0", false), ("true", true),
        ("False", false), ("T", true), ("f", false), ("tRuE", true), ("yES", true), ("FALSE", false), ("No", false),
    ])
    func boolean(raw: String, expected: Bool) throws {
        #expect(try Coercion.boolean(raw) == expected)
    }

    @Test(arguments: ["maybe", "2", "yess", "", "on", "truer", "é"])
    func booleanFailures(raw: String) {
        #expect(throws: CoercionFailure("not a yes/no value")) { try Coercion.boolean(raw) }
    }

    @Test(arguments: [
        ("(619) 555-0134", "(619) 555-0134"), ("619.555.0134", "(619) 555-0134"), ("6195550134", "(619) 555-0134"),
        ("+1 619 555 0134", "(619) 555-0134"), ("1-619-555-0134", "(619) 555-0134"),
    ])
    func phone(raw: String, expected: String) throws {
        #expect(try Coercion.phone(raw) == expected)
    }

    @Test(arguments: ["555-0134", "call me", "(619) 555-013", "44 20 7946 0958 12"])
    func phoneFailures(raw: String) {
        #expect(throws: CoercionFailure("not a phone number")) { try Coercion.phone(raw) }
    }

    @Test(arguments: [("JDoe@Example.com", "jdoe@example.com"), ("a.b+c@mls.co", "a.b+c@mls.co")])
    func email(raw: String, expected: String) throws {
        #expect(try Coercion.email(raw) == expected)
    }

    @Test(arguments: ["jdoe", "jdoe@", "@example.com", "j doe@example.com", "jdoe@example", "a@b@c.com"])
    func emailFailures(raw: String) {
        #expect(throws: CoercionFailure("not an email address")) { try Coercion.email(raw) }
    }

    @Test(arguments: [
        ("92103", PostalCountry.usOrCanada, "92103"), ("92103-4411", .usOrCanada, "92103-4411"),
        ("921034411", .usOrCanada, "92103-4411"), ("92103 4411", .usOrCanada, "92103-4411"),
        ("L3C5J1", .usOrCanada, "L3C 5J1"), ("l3c 5j1", .usOrCanada, "L3C 5J1"), ("L3C-5J1", .usOrCanada, "L3C 5J1"),
        ("K1A 0B1", .usOrCanada, "K1A 0B1"), ("92103", .us, "92103"), ("L3C5J1", .ca, "L3C 5J1"),
        ("SW1A 1AA", .any, "SW1A 1AA"), ("01310-100", .any, "01310-100"), ("D02 X285", .any, "D02 X285"),
        ("l3c5j1", .any, "L3C 5J1"), ("921034411", .any, "92103-4411"), ("10115", .any, "10115"),
    ])
    func postalCode(raw: String, country: PostalCountry, expected: String) throws {
        #expect(try Coercion.postalCode(raw, country: country) == expected)
    }

    @Test(arguments: [
        ("9210", PostalCountry.usOrCanada), ("92103-44", .usOrCanada), ("ABCDE", .usOrCanada),
        ("92103-44115", .usOrCanada), ("92-103", .usOrCanada), ("SW1A 1AA", .usOrCanada), ("D3C 5J1", .usOrCanada),
        ("W3C 5J1", .usOrCanada), ("L3C 5J", .usOrCanada), ("L3C  5J1", .usOrCanada), ("L3C5J1", .us),
        ("92103", .ca), ("N/A", .any), ("ABCDE", .any), ("1234567890123", .any), ("9", .any),
    ])
    func postalCodeFailures(raw: String, country: PostalCountry) {
        #expect(throws: CoercionFailure("not a postal code")) { try Coercion.postalCode(raw, country: country) }
    }

    @Test func coordinates() throws {
        #expect(try Coercion.coordinate("32.7489", limit: 90) == 32.7489)
        #expect(try Coercion.coordinate("-117.1625", limit: 180) == -117.1625)
        #expect(try Coercion.coordinate("0", limit: 90) == nil)
        #expect(try Coercion.coordinate("0.0", limit: 180) == nil)
        #expect(throws: CoercionFailure("out of range ±90")) { try Coercion.coordinate("91", limit: 90) }
        #expect(throws: CoercionFailure("not a coordinate")) { try Coercion.coordinate("N32", limit: 90) }
    }

    @Test(arguments: [
        (0, 0, "1970-01-01T00:00:00Z"), (-1, 0, "1969-12-31T23:59:59Z"), (1_709_164_800, 0, "2024-02-29T00:00:00Z"),
        (253_402_300_799, 0, "9999-12-31T23:59:59Z"), (253_402_300_800, 0, "10000-01-01T00:00:00Z"),
        (-62_135_596_801, 0, "0-12-31T23:59:59Z"), (0, 500_000, "1970-01-01T00:00:00.5Z"),
        (0, 1, "1970-01-01T00:00:00.000001Z"), (0, 120, "1970-01-01T00:00:00.00012Z"),
        (1_406_655_997, 263_457, "2014-07-29T17:46:37.263457Z"), (253_402_300_800, 10, "10000-01-01T00:00:00.00001Z"),
    ])
    func timestampFormattingIsCanonical(seconds: Int, micros: Int, expected: String) {
        #expect(Coercion.formatTimestamp(seconds, microseconds: micros) == expected)
    }

    @Test func enumWordsIgnoreCaseSpacesAndUnderscores() throws {
        let field = FieldMapping(name: "standard_status", sources: ["s"], type: .enum,
                                 enumValues: ["Active Under Contract": "ActiveUnderContract", "A": "Active"])
        for raw in ["ActiveUnderContract", "Active Under Contract", "active_under_contract", "ACTIVE  UNDER CONTRACT"] {
            var issue: String?
            #expect(try field.coerce(raw, zone: nil, issue: &issue) == .text("ActiveUnderContract"))
        }
        var issue: String?
        #expect(try field.coerce("a", zone: nil, issue: &issue) == .text("Active"))
        #expect(throws: CoercionFailure("unknown value")) { try field.coerce("Active-Under-Contract", zone: nil,
                                                                            issue: &issue) }
        #expect(issue == nil)
        #expect(FieldMapping.enumKey("Résidence Secondaire") == "résidencesecondaire")
    }

    @Test func aDateWithATimeIsKeptWithAnIssue() throws {
        var field = FieldMapping(name: "listing_contract_date", sources: ["d"], type: .date)
        var issue: String?
        #expect(try field.coerce("2008-09-01 00:00:00", zone: nil, issue: &issue) == .date("2008-09-01"))
        #expect(issue == nil)
        #expect(try field.coerce("2008-09-01 10:30:00", zone: nil, issue: &issue) == .date("2008-09-01"))
        #expect(issue == "has a time of day, kept the date")
        field.dateOrder = .dmy
        issue = nil
        #expect(try field.coerce("22/01/2019", zone: nil, issue: &issue) == .date("2019-01-22"))
        #expect(issue == nil)
    }
}
