import Foundation
import Testing
@testable import MLSFeed

@Suite struct CoercionTests {
    static let la = TimeZone(identifier: "America/Los_Angeles")!

    @Test(arguments: [
        ("$549,000", "549000"), ("549000", "549000"), ("549000.00", "549000"), ("$1,250,000", "1250000"),
        ("1.25M", "1250000"), ("549K", "549000"), ("12.5", "12.5"), ("$ 1,999.99", "1999.99"), ("0", "0"),
    ])
    func money(raw: String, expected: String) throws {
        #expect(try Coercion.money(raw) == expected)
    }

    @Test(arguments: ["call agent", "TBD", "$", "1.2.3", "M", "-5", "12,5O0"])
    func moneyFailures(raw: String) {
        #expect(throws: CoercionFailure("not a price")) { try Coercion.money(raw) }
    }

    @Test(arguments: [("3", 3), ("2", 2), ("1,850", 1850), ("2.0", 2), ("-1", -1)] as [(String, Int64)])
    func integer(raw: String, expected: Int64) throws {
        #expect(try Coercion.integer(raw) == expected)
    }

    @Test(arguments: ["2.5", "three", "3 beds", ""])
    func integerFailures(raw: String) {
        #expect(throws: CoercionFailure("not an integer")) { try Coercion.integer(raw) }
    }

    @Test(arguments: [("1,850", "1850"), ("1850", "1850"), ("0.25", "0.25"), ("12.345", "12.35")])
    func decimal(raw: String, expected: String) throws {
        #expect(try Coercion.decimal(raw) == expected)
    }

    @Test(arguments: [
        ("2026-03-04", "2026-03-04"), ("03/04/2026", "2026-03-04"), ("3/4/2026", "2026-03-04"),
        ("2024-02-29", "2024-02-29"),
    ])
    func date(raw: String, expected: String) throws {
        #expect(try Coercion.date(raw) == expected)
    }

    @Test(arguments: ["2026-02-30", "13/01/2026", "2025-02-29", "March 4", "2026/03/04", "04-03-26"])
    func dateFailures(raw: String) {
        #expect(throws: CoercionFailure("not a date")) { try Coercion.date(raw) }
    }

    @Test(arguments: [
        // Naive source-local times in Los Angeles: PST is UTC-8, PDT is UTC-7.
        ("2026-11-28T01:59:03", "2026-11-28T09:59:03Z"),
        ("11/28/2026 01:59:03 AM", "2026-11-28T09:59:03Z"),
        ("11/28/2026 01:59:03 PM", "2026-11-28T21:59:03Z"),
        ("11/28/2026 12:05:00 AM", "2026-11-28T08:05:00Z"),
        ("11/28/2026 12:05:00 PM", "2026-11-28T20:05:00Z"),
        ("2026-07-04 09:30", "2026-07-04T16:30:00Z"),
        ("2026-07-04", "2026-07-04T07:00:00Z"),
        ("2026-11-28T01:59:03.250", "2026-11-28T09:59:03Z"),
        // Explicit offsets win over the source zone.
        ("2026-11-28T01:59:03Z", "2026-11-28T01:59:03Z"),
        ("2026-11-28T01:59:03-05:00", "2026-11-28T06:59:03Z"),
        ("2026-11-28T01:59:03+0530", "2026-11-27T20:29:03Z"),
    ])
    func timestamp(raw: String, expected: String) throws {
        #expect(try Coercion.timestamp(raw, zone: Self.la) == expected)
    }

    @Test(arguments: ["yesterday", "2026-11-28T25:00:00", "11/28/2026 13:00 PM", "2026-11-28T01:61"])
    func timestampFailures(raw: String) {
        #expect(throws: CoercionFailure("not a timestamp")) { try Coercion.timestamp(raw, zone: Self.la) }
    }

    @Test func naiveTimestampNeedsZone() {
        #expect(throws: CoercionFailure("naive timestamp but the source has no time_zone")) {
            try Coercion.timestamp("2026-11-28T01:59:03", zone: nil)
        }
    }

    @Test(arguments: [("Y", true), ("n", false), ("Yes", true), ("NO", false), ("1", true), ("0", false),
                      ("true", true), ("False", false)])
    func boolean(raw: String, expected: Bool) throws {
        #expect(try Coercion.boolean(raw) == expected)
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

    @Test(arguments: [("92103", "92103"), ("92103-4411", "92103-4411"), ("921034411", "92103-4411")])
    func postalCode(raw: String, expected: String) throws {
        #expect(try Coercion.postalCode(raw) == expected)
    }

    @Test(arguments: ["9210", "92103-44", "ABCDE", "92103-44115"])
    func postalCodeFailures(raw: String) {
        #expect(throws: CoercionFailure("not a ZIP code")) { try Coercion.postalCode(raw) }
    }

    @Test func coordinates() throws {
        #expect(try Coercion.coordinate("32.7489", limit: 90) == 32.7489)
        #expect(try Coercion.coordinate("-117.1625", limit: 180) == -117.1625)
        #expect(try Coercion.coordinate("0", limit: 90) == nil)
        #expect(try Coercion.coordinate("0.0", limit: 180) == nil)
        #expect(throws: CoercionFailure("out of range ±90")) { try Coercion.coordinate("91", limit: 90) }
        #expect(throws: CoercionFailure("not a coordinate")) { try Coercion.coordinate("N32", limit: 90) }
    }

    @Test func timestampFormattingIsCanonical() {
        #expect(Coercion.formatTimestamp(0) == "1970-01-01T00:00:00Z")
        #expect(Coercion.formatTimestamp(-1) == "1969-12-31T23:59:59Z")
        #expect(Coercion.formatTimestamp(1_709_164_800) == "2024-02-29T00:00:00Z")
        #expect(Coercion.formatTimestamp(253_402_300_799) == "9999-12-31T23:59:59Z")
        #expect(Coercion.formatTimestamp(253_402_300_800) == "10000-01-01T00:00:00Z")
        #expect(Coercion.formatTimestamp(-62_135_596_801) == "0-12-31T23:59:59Z")
    }
}
