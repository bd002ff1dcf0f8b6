import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// What a full run may withdraw, judged through the built binary against a real PostgreSQL: only complete dumps
/// reconcile, an older dump never reverses a newer one, a multi-part dump is one unit, partial columns are kept.
@Suite(.ownThread) struct ReconciliationTests {
    /// One listing row of a RETS reply.
    struct Row {
        var id: String
        var price = 500_000
        var status = "Active"
        var modified = "2026-11-01T10:00:00"
        var city = "San Diego"
        var beds = 3

        func value(_ column: String) -> String {
            switch column {
            case "ListingId": return id
            case "ListPrice": return String(price)
            case "StandardStatus": return status
            case "ModificationTimestamp": return modified
            case "City": return city
            case "BedroomsTotal": return String(beds)
            default: return ""
            }
        }
    }

    static let sixColumns = ["ListingId", "StandardStatus", "ListPrice", "ModificationTimestamp", "City",
                             "BedroomsTotal"]
    static let fourColumns = Array(sixColumns.prefix(4))

    /// A RETS COMPACT search reply holding `rows`, with an optional COUNT, MAXROWS and RETS-STATUS trailer.
    static func reply(_ rows: [Row], columns: [String] = sixColumns, count: Int? = nil, maxRows: Bool = false,
                      status: String? = nil) -> String {
        var lines = ["<?xml version=\"1.0\"?>", "<RETS ReplyCode=\"0\" ReplyText=\"Operation Successful\">"]
        if let count { lines.append("<COUNT Records=\"\(count)\"/>") }
        lines.append("<DELIMITER value=\"09\"/>")
        lines.append("<COLUMNS>\t" + columns.joined(separator: "\t") + "\t</COLUMNS>")
        for row in rows { lines.append("<DATA>\t" + columns.map(row.value).joined(separator: "\t") + "\t</DATA>") }
        if maxRows { lines.append("<MAXROWS/>") }
        if let status { lines.append("<RETS-STATUS ReplyCode=\"\(status)\" ReplyText=\"Maximum Records Exceeded\"/>") }
        lines.append("</RETS>")
        return lines.joined(separator: "\n") + "\n"
    }

    static func rows(_ range: ClosedRange<Int>, price: Int = 500_000, modified: String = "2026-11-01T10:00:00")
        -> [Row] {
        range.map { Row(id: String(format: "L%04d", $0), price: price + $0, modified: modified) }
    }

    /// A scratch directory with a RETS pipeline (`rets.yaml`, the shipped RESO mapping) in it.
    struct Scratch {
        let dir: URL
        let database: String

        /// A pipeline `rets` of the given settings in a new directory, and a new database (`migrated`, or empty).
        init(mode: String = "full", extraLoad: String = "", source: String = "", migrated: Bool = true) throws {
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("recon-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            database = try migrated ? TestDatabase.migrated() : TestDatabase.fresh()
            let mapping = CLI.packageRoot.appendingPathComponent("pipelines/mappings/reso.yaml").path
            try """
                name: rets
                source:
                  id: crmls
                  time_zone: America/Los_Angeles
                \(source)
                format: { type: rets-compact }
                mapping: \(mapping)
                load:
                  mode: \(mode)
                \(extraLoad)
                """.write(to: dir.appendingPathComponent("rets.yaml"), atomically: true, encoding: .utf8)
        }

        func write(_ name: String, _ text: String) throws {
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }

        /// `mlsfeed run rets.yaml --input INPUT` with the summary as JSON (an array for several units).
        func run(_ input: String, _ extra: [String] = []) throws -> (status: Int32, stderr: String, summary: Any?) {
            let summaryPath = dir.appendingPathComponent("summary-\(UUID().uuidString).json").path
            let result = try CLI.run(["run", "rets.yaml", "--input", input, "--database", database, "--no-progress",
                                      "--quiet", "--summary-json", summaryPath] + extra, in: dir)
            let data = FileManager.default.contents(atPath: summaryPath)
            return (result.status, result.stderr, data.flatMap { try? JSONSerialization.jsonObject(with: $0) })
        }

        func query(_ sql: String) throws -> [[String?]] {
            try Connection(database).execute(sql).rows
        }

        func scalar(_ sql: String) throws -> String? {
            try query(sql).first?.first ?? nil
        }
    }

    static func field(_ summary: Any?, _ key: String) -> Any? {
        (summary as? [String: Any])?[key]
    }

    @Test func aCutReplyIsRefusedInFullModeAndUpsertedOnlyWhenAllowed() throws {
        let scratch = try Scratch()
        try scratch.write("full.xml", Self.reply(Self.rows(1...200), count: 200))
        let cut = Self.rows(1...150, price: 600_000, modified: "2026-11-02T10:00:00")
        try scratch.write("cut.xml", Self.reply(cut, count: 200, maxRows: true, status: "20208"))
        let first = try scratch.run("full.xml")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(Self.field(first.summary, "complete") as? Bool == true)

        let refused = try scratch.run("cut.xml")
        #expect(refused.status == 3)
        #expect(refused.stderr.contains("error: dump is incomplete (MAXROWS, RETS 20208, COUNT 200 > 150 rows read); "
            + "a full run withdraws only from a complete dump; set load.on_incomplete: incremental to upsert it "
            + "anyway"), "\(refused.stderr)")
        #expect(try scratch.scalar("SELECT count(*) FROM listings WHERE off_market_at IS NOT NULL") == "0")
        #expect(try scratch.scalar("SELECT count(*) FROM listings WHERE list_price >= 600000") == "0")
        #expect(try scratch.query("""
            SELECT status, complete::text, array_to_string(incomplete_reasons, '; '), read::text
            FROM ingest_runs ORDER BY id DESC LIMIT 1
            """) == [["failed", "false", "MAXROWS; RETS 20208; COUNT 200 > 150 rows read", "150"]])
        // --force overrides the withdraw guard, never incompleteness.
        #expect(try scratch.run("cut.xml", ["--force"]).status == 3)

        let lenient = try Scratch(extraLoad: "  on_incomplete: incremental")
        try lenient.write("full.xml", Self.reply(Self.rows(1...200), count: 200))
        try lenient.write("cut.xml", Self.reply(cut, count: 200, maxRows: true, status: "20208"))
        #expect(try lenient.run("full.xml").status == 0)
        let upserted = try lenient.run("cut.xml")
        #expect(upserted.status == 0, "\(upserted.stderr)")
        #expect(Self.field(upserted.summary, "updated") as? Int == 150)
        #expect(Self.field(upserted.summary, "withdrawn") as? Int == 0)
        #expect(Self.field(upserted.summary, "complete") as? Bool == false)
        #expect((Self.field(upserted.summary, "warnings") as? [String])?.contains(
            "dump is incomplete (MAXROWS, RETS 20208, COUNT 200 > 150 rows read): upserted only, nothing withdrawn "
                + "(load.on_incomplete: incremental)") == true)
        #expect(try lenient.scalar("SELECT count(*) FROM listings WHERE list_price >= 600000") == "150")
        #expect(try lenient.scalar("SELECT count(*) FROM listings WHERE off_market_at IS NOT NULL") == "0")
    }

    @Test func partsOfOneDumpAreOneRunAndOneReconciliation() throws {
        let scratch = try Scratch(source: "  unit: all")
        let parts = scratch.dir.appendingPathComponent("parts")
        try FileManager.default.createDirectory(at: parts, withIntermediateDirectories: true)
        func part(_ name: String, _ text: String) throws {
            try text.write(to: parts.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try part("1.xml", Self.reply(Self.rows(1...100), count: 100))
        try part("2.xml", Self.reply(Self.rows(101...200), count: 100))
        let first = try scratch.run("parts")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(Self.field(first.summary, "inserted") as? Int == 200)

        // The next night: part 1 lost listings 91-100, part 2 lost 181-200. Only those withdraw, in one run.
        try part("1.xml", Self.reply(Self.rows(1...90), count: 90))
        try part("2.xml", Self.reply(Self.rows(101...180), count: 80))
        let second = try scratch.run("parts")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(Self.field(second.summary, "withdrawn") as? Int == 30)
        #expect(try scratch.query("""
            SELECT min(listing_id), max(listing_id), count(*)::text FROM listings WHERE off_market_at IS NOT NULL
              AND (listing_id BETWEEN 'L0091' AND 'L0100' OR listing_id BETWEEN 'L0181' AND 'L0200')
            """) == [["L0091", "L0200", "30"]])
        #expect(try scratch.scalar("SELECT count(*) FROM ingest_runs") == "2")
        #expect(try scratch.scalar("SELECT jsonb_array_length(inputs) FROM ingest_runs ORDER BY id DESC LIMIT 1")
            == "2")

        // A corrupt second part fails the whole dump: part 1's changes are not kept either.
        let before = try scratch.query("SELECT listing_id, list_price::text, xmin::text FROM listings ORDER BY 1")
        try part("1.xml", Self.reply(Self.rows(1...90, price: 700_000, modified: "2026-11-03T10:00:00"), count: 90))
        let good2 = Self.reply(Self.rows(101...180, price: 700_000, modified: "2026-11-03T10:00:00"), count: 80)
        try part("2.xml", String(good2.prefix(good2.count / 2)))
        let broken = try scratch.run("parts")
        #expect(broken.status == 1)
        #expect(try scratch.query("SELECT listing_id, list_price::text, xmin::text FROM listings ORDER BY 1")
            == before)
        try part("2.xml", good2)
        let rerun = try scratch.run("parts")
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(Self.field(rerun.summary, "updated") as? Int == 170)
        #expect(try scratch.scalar("SELECT count(*) FROM listings WHERE list_price >= 700000") == "170")
    }

    @Test func columnsAReplyDoesNotCarryKeepTheirStoredValues() throws {
        let scratch = try Scratch(mode: "incremental")
        let six = Self.rows(1...20).map { row -> Row in
            var row = row
            row.city = "Oceanside"
            row.beds = 4
            return row
        }
        try scratch.write("six.xml", Self.reply(six, columns: Self.sixColumns))
        try scratch.write("four.xml", Self.reply(six, columns: Self.fourColumns))
        #expect(try scratch.run("six.xml").status == 0)
        let stored = try scratch.query("SELECT listing_id, xmin::text FROM listings ORDER BY 1")

        let four = try scratch.run("four.xml")
        #expect(four.status == 0, "\(four.stderr)")
        #expect(Self.field(four.summary, "updated") as? Int == 0)
        #expect(Self.field(four.summary, "unchanged") as? Int == 20)
        #expect(try scratch.query("""
            SELECT count(*)::text FROM listings WHERE city = 'Oceanside' AND bedrooms_total = 4
            """) == [["20"]])
        let again = try scratch.run("six.xml")
        #expect(again.status == 0)
        #expect(Self.field(again.summary, "updated") as? Int == 0)
        #expect(try scratch.query("SELECT listing_id, xmin::text FROM listings ORDER BY 1") == stored)

        // A narrower reply that changes a price updates it and still keeps what it does not carry.
        var newer = six
        newer[0].price = 999_000
        newer[0].modified = "2026-11-05T10:00:00"
        try scratch.write("four-newer.xml", Self.reply(newer, columns: Self.fourColumns))
        let changed = try scratch.run("four-newer.xml")
        #expect(Self.field(changed.summary, "updated") as? Int == 1)
        #expect(try scratch.query("""
            SELECT list_price::text, city, bedrooms_total::text FROM listings WHERE listing_id = 'L0001'
            """) == [["999000.00", "Oceanside", "4"]])
        // The older six-column reply is now stale for that listing and changes nothing.
        let stale = try scratch.run("six.xml")
        #expect(Self.field(stale.summary, "stale") as? Int == 1)
        #expect(Self.field(stale.summary, "updated") as? Int == 0)
    }

    @Test func aRunRefusedForItsRejectsKeepsWhatItSawInTheLedger() throws {
        let scratch = try Scratch(extraLoad: "  max_reject_ratio: 0.1")
        var rows = Self.rows(1...10)
        for i in 0..<5 { rows[i].status = "Teleported" }
        try scratch.write("bad.xml", Self.reply(rows, count: 10))
        let result = try scratch.run("bad.xml")
        #expect(result.status == 3)
        #expect(result.stderr.contains("error: bad.xml: 5 of 10 records rejected (50.0%)"), "\(result.stderr)")
        let ledger = try scratch.query("""
            SELECT status, read::text, rejected::text, inputs->0->>'location', inputs->0->>'sha256' IS NOT NULL,
                   cardinality(sample_rejects)::text, sample_rejects[1], error LIKE '%records rejected%'
            FROM ingest_runs
            """)
        #expect(ledger == [["failed", "10", "5", "bad.xml", "t", "5",
                            "bad.xml:6:1: error: MLS L0001: standard_status: unknown value (\"Teleported\")", "t"]])
        #expect(try scratch.scalar("SELECT count(*) FROM listings") == "0")
    }

    @Test func reloadingTheFullDumpAfterAForcedShortOneRestoresTheMarket() throws {
        let scratch = try Scratch()
        // The newest record of the dump is among the first 40, so the short dump is as new as the full one.
        var full = Self.rows(1...100)
        full[0].modified = "2026-11-02T09:00:00"
        try scratch.write("full.xml", Self.reply(full))
        try scratch.write("short.xml", Self.reply(Array(full.prefix(40))))
        #expect(try scratch.run("full.xml").status == 0)
        let guarded = try scratch.run("short.xml")
        #expect(guarded.status == 3)
        let forced = try scratch.run("short.xml", ["--force"])
        #expect(Self.field(forced.summary, "withdrawn") as? Int == 60)

        let restored = try scratch.run("full.xml")
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(Self.field(restored.summary, "status") as? String == "succeeded")
        #expect(Self.field(restored.summary, "updated") as? Int == 60)
        #expect(try scratch.scalar("SELECT count(*) FROM listings WHERE off_market_at IS NULL") == "100")
        #expect(try scratch.scalar("SELECT count(*) FROM listing_history WHERE change = 'returned'") == "60")
        // Loading the same dump once more is a true "unchanged": it matches the source's last successful run.
        let same = try scratch.run("full.xml")
        #expect(Self.field(same.summary, "status") as? String == "unchanged")
        #expect((Self.field(same.summary, "matched_run") as? Int).map(Int64.init)
            == (Self.field(restored.summary, "run_id") as? Int).map(Int64.init))
        // Another mode is another question: the incremental run loads.
        let incremental = try scratch.run("full.xml", ["--mode", "incremental"])
        #expect(Self.field(incremental.summary, "status") as? String == "succeeded")
    }

    @Test func anOlderDumpChangesNothingANewerOneDecided() throws {
        let scratch = try Scratch()
        let older = Self.rows(1...100, modified: "2026-11-01T10:00:00")
        // The newer dump lost listings 81-100, changed the price of 1-10, and has new listings 101-105.
        var newer = Self.rows(1...80, modified: "2026-11-01T10:00:00") + Self.rows(101...105,
                                                                                  modified: "2026-11-03T08:00:00")
        for i in 0..<10 {
            newer[i].price = 650_000
            newer[i].modified = "2026-11-03T09:00:00"
        }
        try scratch.write("2026-11-01.xml", Self.reply(older))
        try scratch.write("2026-11-03.xml", Self.reply(newer))
        try scratch.write("copy-of-2026-11-01.xml", Self.reply(older))
        #expect(try scratch.run("2026-11-01.xml").status == 0)
        let withdrew = try scratch.run("2026-11-03.xml")
        #expect(Self.field(withdrew.summary, "withdrawn") as? Int == 20)
        let market = try scratch.query("""
            SELECT listing_id, standard_status, list_price::text, off_market_at IS NULL FROM listings ORDER BY 1
            """)

        let old = try scratch.run("copy-of-2026-11-01.xml")
        #expect(old.status == 0, "\(old.stderr)")
        #expect(Self.field(old.summary, "updated") as? Int == 0)
        #expect(Self.field(old.summary, "withdrawn") as? Int == 0)
        #expect(Self.field(old.summary, "stale") as? Int == 30)
        #expect(Self.field(old.summary, "reconciled") as? Bool == false)
        #expect((Self.field(old.summary, "warnings") as? [String])?.contains { $0.hasPrefix(
            "dump as of 2026-11-01T18:00:00Z is older than the dump of run 2") } == true)
        #expect(try scratch.query("""
            SELECT listing_id, standard_status, list_price::text, off_market_at IS NULL FROM listings ORDER BY 1
            """) == market)
        #expect(try scratch.scalar("SELECT count(*) FROM listing_history WHERE change = 'returned'") == "0")
    }
}
