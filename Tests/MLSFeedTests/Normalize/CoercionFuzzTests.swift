import Foundation
import Testing
@testable import MLSFeed

/// Inputs the `coerce` fuzz target found (Fixtures/fuzz: the minimized input's raw text; the test names the
/// field type and time zone its option bytes chose), and the rule each one broke.
@Suite struct CoercionFuzzTests {
    static func fixture(_ name: String) throws -> String {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures/fuzz"))
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// A local time inside the accepted years (1800 to 2200) whose UTC instant is outside them was accepted, and
    /// its canonical text (`1799-12-31T13:23:40Z` for the fixture) then failed to coerce again.
    @Test(arguments: [
        ("coerce-timestamp-1800-lord-howe.txt", "Australia/Lord_Howe"),  // found by the fuzzer
        ("2200-12-31T23:30", "America/Los_Angeles"),                     // the same at the other end
    ])
    func instantOutsideTheYearsIsRefused(input: String, zone: String) throws {
        let raw = input.hasSuffix(".txt") ? try Self.fixture(input) : input
        let field = FieldMapping(name: "modification_timestamp", sources: [], type: .timestamp)
        var issue: String?
        #expect(throws: CoercionFailure("not a timestamp")) {
            try field.coerce(raw, zone: TimeZone(identifier: zone), issue: &issue)
        }
    }

    /// Just inside either end, a timestamp coerces, and its canonical text coerces to itself.
    @Test(arguments: [
        ("1800-01-01T10:36:20", "Australia/Lord_Howe", "1800-01-01T00:00:00Z"),
        ("2200-12-31T15:59:59", "America/Los_Angeles", "2200-12-31T23:59:59Z"),
    ])
    func canonicalTimestampCoercesAgain(raw: String, zone: String, expected: String) throws {
        let field = FieldMapping(name: "modification_timestamp", sources: [], type: .timestamp)
        var issue: String?
        let value = try field.coerce(raw, zone: TimeZone(identifier: zone), issue: &issue)
        #expect(value == .timestamp(expected))
        #expect(try field.coerce(expected, zone: TimeZone(identifier: zone), issue: &issue) == value)
        #expect(issue == nil)
    }
}
