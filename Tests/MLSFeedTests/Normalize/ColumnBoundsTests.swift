import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// A value too large for its column (32-bit integers, `numeric(14,2)` prices) is a reject of its record with a
/// reason, never a failed COPY that loses the whole run.
@Suite(.ownThread) struct ColumnBoundsTests {
    @Test(arguments: [
        ("list_price", FieldType.money, "$999,999,999,999.99", nil),
        ("list_price", .money, "1000000000000", "too large for the column (at most 999999999999.99)"),
        ("close_price", .decimal, "-1000000000000.5", "too large for the column (at most 999999999999.99)"),
        ("bedrooms_total", .integer, "2147483647", nil),
        ("bedrooms_total", .integer, "3000000000", "too large for the column (at most 2147483647)"),
        ("year_built", .integer, "99999999999999", "too large for the column (at most 2147483647)"),
        ("living_area", .decimal, "123456789012345.5", nil),  // numeric without a bound
        // Text an index holds: at most 255 bytes (UTF-8), the key's and the search columns'.
        ("listing_id", .text, String(repeating: "7", count: 255), nil),
        ("listing_id", .text, String(repeating: "7", count: 256), "longer than 255 bytes"),
        ("city", .text, String(repeating: "é", count: 128), "longer than 255 bytes"),
        ("agent_mls_id", .text, String(repeating: "A", count: 300), "longer than 255 bytes"),
        ("public_remarks", .text, String(repeating: "r", count: 100_000), nil),  // in no index
    ] as [(String, FieldType, String, String?)])
    func boundedByTheColumn(column: String, type: FieldType, raw: String, failure: String?) throws {
        let field = FieldMapping(name: column, sources: ["v"], type: type)
        var issue: String?
        if let failure {
            #expect(throws: CoercionFailure(failure)) { try field.coerce(raw, zone: nil, issue: &issue) }
        } else {
            #expect(try field.coerce(raw, zone: nil, issue: &issue) != nil)
        }
    }

    /// Found reading the code: a price of 10^12 passed normalize and failed the run's COPY with `numeric field
    /// overflow` (exit 1, nothing loaded); now that listing is rejected and the rest of the dump loads.
    @Test func aHugePriceRejectsItsListingAndTheRunLoads() throws {
        let sample = DatabaseRunTests.root.appendingPathComponent("pipelines/data/sample.xml")
        let text = try String(contentsOf: sample, encoding: .utf8)
        let dir = NSTemporaryDirectory() + "mlsfeed-bounds-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = dir + "/sample.xml"
        let huge = text.replacingOccurrences(of: "<values>260000005|Active|Single Family Residential|1230000|",
                                             with: "<values>260000005|Active|Single Family Residential|"
                                                + "99999999999999|")
        #expect(huge != text)
        try huge.write(toFile: input, atomically: true, encoding: .utf8)
        let database = try TestDatabase.migrated()
        let base = try DatabaseRunTests.run(try DatabaseRunTests.sample(), database: database)
        let fresh = try TestDatabase.migrated()
        let summary = try DatabaseRunTests.run(try DatabaseRunTests.sample(), database: fresh, input: input)
        #expect(summary.status == .succeeded, "\(summary.error ?? "")")
        #expect(summary.rejected == base.rejected + 1)
        #expect(summary.rejectReasons.contains { $0.contains("list_price: 1 too large for the column") },
                "\(summary.rejectReasons)")
        let db = try Connection(fresh)
        #expect(try DatabaseRunTests.scalar(db, "SELECT count(*) FROM listings WHERE listing_id = '260000005'") == "0")
        #expect(try DatabaseRunTests.scalar(db, "SELECT count(*) FROM listings")
            == String(base.load.inserted - 1))
    }

    /// An MLS number longer than a key column takes (3 MB: far past a B-tree entry's 2,700 bytes, and past 255) is a
    /// reject naming the bound, its raw value cut in the reason and kept whole in the reject; the rest of the dump
    /// loads. (The run failed on PostgreSQL's "index row size" error, nothing loaded.)
    @Test func aKeyLongerThanTheIndexTakesRejectsItsListingAndTheRunLoads() throws {
        let sample = DatabaseRunTests.root.appendingPathComponent("pipelines/data/sample.xml")
        let text = try String(contentsOf: sample, encoding: .utf8)
        let dir = NSTemporaryDirectory() + "mlsfeed-bounds-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = dir + "/sample.xml"
        let key = String(repeating: "260000005", count: 350_000)
        let long = text.replacingOccurrences(of: "<values>260000005|", with: "<values>\(key)|")
        #expect(long != text)
        try long.write(toFile: input, atomically: true, encoding: .utf8)
        let base = try DatabaseRunTests.run(try DatabaseRunTests.sample(), database: try TestDatabase.fresh())
        let fresh = try TestDatabase.fresh()
        let summary = try DatabaseRunTests.run(try DatabaseRunTests.sample(), database: fresh, input: input)
        #expect(summary.status == .succeeded, "\(summary.error ?? "")")
        #expect(summary.rejected == base.rejected + 1)
        let shown = "listing_id: 1 longer than 255 bytes (\"" + key.prefix(200) + "…\")"
        #expect(summary.rejectReasons.contains(shown), "\(summary.rejectReasons)")
        let db = try Connection(fresh)
        #expect(try db.execute("""
            SELECT key IS NULL, reasons[1], length(raw::text) > 3000000 FROM rejects
            WHERE reasons[1] LIKE 'listing_id: longer%'
            """).rows == [["t", "listing_id: longer than 255 bytes (\"" + key.prefix(200) + "…\")", "t"]])
        #expect(try DatabaseRunTests.scalar(db, "SELECT count(*) FROM listings") == String(base.load.inserted - 1))
    }
}
