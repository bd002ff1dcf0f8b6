import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// `mlsfeed plan` through the built binary on a real PostgreSQL: it writes nothing (every row keeps its `xmin`),
/// its counts are what the run then does, and it reports the safety rule that would stop a run.
@Suite(.ownThread) struct PlanCommandTests {
    typealias Row = ReconciliationTests.Row

    /// Every row of the tables a run writes, with its `xmin`, and the sequences' positions: a plan must leave all
    /// of them as they were.
    static func snapshot(_ scratch: ReconciliationTests.Scratch) throws -> [[String?]] {
        try scratch.query("""
            SELECT 'listings', source || '/' || listing_id, xmin::text FROM listings
            UNION ALL SELECT 'agents', source || '/' || agent_mls_id, xmin::text FROM agents
            UNION ALL SELECT 'ingest_runs', id::text, xmin::text FROM ingest_runs
            UNION ALL SELECT 'listing_history', id::text, xmin::text FROM listing_history
            UNION ALL SELECT 'rejects', id::text, xmin::text FROM rejects
            UNION ALL SELECT 'replication_state', resource, xmin::text FROM replication_state
            UNION ALL SELECT 'indexes', count(*)::text, '' FROM pg_indexes WHERE tablename = 'listings'
            ORDER BY 1, 2
            """)
    }

    /// `mlsfeed plan rets.yaml --input INPUT ARGS` in the scratch directory.
    static func plan(_ scratch: ReconciliationTests.Scratch, _ input: String, _ extra: [String] = [])
        throws -> CLI.Result {
        try CLI.run(["plan", "rets.yaml", "--input", input, "--database", scratch.database] + extra, in: scratch.dir)
    }

    static func outcome(_ plan: [String: Any], _ group: String, _ name: String) -> (Int?, [String]?) {
        let entry = (plan[group] as? [String: Any])?[name] as? [String: Any]
        return (entry?["count"] as? Int, entry?["examples"] as? [String])
    }

    @Test func aPlanWritesNothingAndCountsWhatTheRunThenDoes() throws {
        let scratch = try ReconciliationTests.Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.dir) }
        try scratch.write("first.xml", ReconciliationTests.reply(ReconciliationTests.rows(1...200), count: 200))
        #expect(try scratch.run("first.xml").status == 0)
        // Next night: L0001 price cut, L0002 pending, L0003 an older copy (stale), L0200 gone, L0201 new.
        var rows = ReconciliationTests.rows(1...199)
        rows[0].price = 450_000
        rows[0].modified = "2026-11-02T09:00:00"
        rows[1].status = "Pending"
        rows[1].modified = "2026-11-02T09:00:00"
        rows[2].price = 1
        rows[2].modified = "2026-10-01T09:00:00"
        rows.append(Row(id: "L0201", price: 700_000, modified: "2026-11-02T09:30:00"))
        try scratch.write("next.xml", ReconciliationTests.reply(rows, count: 200))

        let before = try Self.snapshot(scratch)
        let planned = try Self.plan(scratch, "next.xml", ["--format", "json"])
        #expect(planned.status == 0, "\(planned.stderr)")
        #expect(try Self.snapshot(scratch) == before)
        let plan = try #require(try parsedJSON(planned.stdout) as? [String: Any])
        #expect(planned.stdout.split(separator: "\n").count == 1)
        #expect(Array(plan.keys).sorted() == ["agents", "as_of", "changes", "duplicates", "inputs", "listings",
            "matched_run", "mode", "outcome", "pipeline", "read", "reconciled", "record", "rejected", "source",
            "stop", "warnings"])
        #expect(plan["record"] as? String == "planned" && plan["outcome"] as? String == "load")
        #expect(plan["stop"] is NSNull && plan["reconciled"] as? Bool == true && plan["read"] as? Int == 200)
        #expect(Self.outcome(plan, "listings", "inserted") == (1, ["L0201"]))
        #expect(Self.outcome(plan, "listings", "updated") == (2, ["L0001", "L0002"]))
        #expect(Self.outcome(plan, "listings", "stale") == (1, ["L0003"]))
        #expect(Self.outcome(plan, "listings", "withdrawn") == (1, ["L0200"]))
        let unchanged = Self.outcome(plan, "listings", "unchanged")
        #expect(unchanged.0 == 196)
        #expect(unchanged.1 == (4...13).map { String(format: "L%04d", $0) })
        let changes = try #require(plan["changes"] as? [String: Any])
        #expect(changes["count"] as? Int == 3)
        #expect(changes["by_change"] as? [String: Int] == ["price": 1, "status": 1, "withdrawn": 1])
        let sample = try #require(changes["sample"] as? [[String: Any]])
        #expect(sample.map { $0["listing_id"] as? String } == ["L0001", "L0002", "L0200"])
        #expect(sample[0]["old_price"] as? Double == 500_001 && sample[0]["new_price"] as? Double == 450_000)
        #expect(sample[1]["old_status"] as? String == "Active" && sample[1]["new_status"] as? String == "Pending")
        #expect(sample[2]["new_status"] as? String == "Withdrawn")

        // The run then does exactly that.
        let ran = try scratch.run("next.xml")
        #expect(ran.status == 0, "\(ran.stderr)")
        let summary = try #require(ran.summary as? [String: Any])
        for name in ["inserted", "updated", "unchanged", "stale", "withdrawn"] {
            #expect(summary[name] as? Int == Self.outcome(plan, "listings", name).0, "\(name)")
        }
        #expect(try scratch.query("""
            SELECT listing_id, change FROM listing_history WHERE run_id = 2 ORDER BY listing_id
            """) == [["L0001", "price"], ["L0002", "status"], ["L0200", "withdrawn"]])

        // The same input again: the run would skip it; --force plans the load.
        let again = try Self.plan(scratch, "next.xml")
        #expect(again.status == 0)
        #expect(again.stdout == """
            planned (nothing written, no ledger row): pipeline rets, source crmls, mode full, input next.xml
            would be skipped: the input is unchanged since run 2 (--force plans a load of it anyway)

            """)
        let forced = try Self.plan(scratch, "next.xml", ["--force"])
        #expect(forced.status == 0)
        let lines = forced.stdout.split(separator: "\n").map(String.init)
        // L0003's copy is still older than the stored row.
        #expect(lines.contains("unchanged    199  L0001 L0002 L0004 L0005 L0006 L0007 L0008 L0009 L0010 L0011 …"))
        #expect(lines.contains("stale          1  L0003"))
        #expect(lines.contains("price and status changes: 0") && lines.last == "would load")
        #expect(try scratch.query("SELECT count(*)::text FROM ingest_runs") == [["2"]])
    }

    @Test func aPlanSaysWhichSafetyRuleWouldStopTheRun() throws {
        let scratch = try ReconciliationTests.Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.dir) }
        try scratch.write("first.xml", ReconciliationTests.reply(ReconciliationTests.rows(1...200), count: 200))
        #expect(try scratch.run("first.xml").status == 0)
        try scratch.write("small.xml", ReconciliationTests.reply(ReconciliationTests.rows(1...50), count: 50))
        let cut = ReconciliationTests.rows(1...150, price: 600_000, modified: "2026-11-02T10:00:00")
        try scratch.write("cut.xml", ReconciliationTests.reply(cut, count: 200, maxRows: true, status: "20208"))
        let before = try Self.snapshot(scratch)

        let guarded = try Self.plan(scratch, "small.xml")
        #expect(guarded.status == 3 && guarded.stderr == "", "\(guarded.stderr)")
        #expect(guarded.stdout == """
            planned (nothing written, no ledger row): pipeline rets, source crmls, mode full, input small.xml
            read 50, rejected 0
            would stop (withdraw_guard): full dump holds 50 listings, fewer than 50% of the 200 active listings of \
            source crmls: refusing to withdraw the rest (a truncated download?); rerun with --force to load it anyway
            nothing would be loaded

            """)
        let incomplete = try Self.plan(scratch, "cut.xml", ["--format", "json"])
        #expect(incomplete.status == 3)
        let plan = try #require(try parsedJSON(incomplete.stdout) as? [String: Any])
        #expect(plan["outcome"] as? String == "stop")
        let stop = try #require(plan["stop"] as? [String: Any])
        #expect(stop["rule"] as? String == "completeness")
        #expect((stop["reason"] as? String)?.hasPrefix("dump is incomplete (MAXROWS, RETS 20208, COUNT 200 > 150 "
            + "rows read)") == true)
        // In incremental mode neither rule applies: the cut reply would update its 150 listings.
        let upsert = try Self.plan(scratch, "cut.xml", ["--mode", "incremental", "--format", "json"])
        #expect(upsert.status == 0)
        let upserted = try #require(try parsedJSON(upsert.stdout) as? [String: Any])
        #expect(Self.outcome(upserted, "listings", "updated").0 == 150)
        #expect(Self.outcome(upserted, "listings", "withdrawn") == (0, []))
        #expect(try Self.snapshot(scratch) == before)
    }

    @Test func aPlanOfAnEmptySourceDropsNoIndex() throws {
        let scratch = try ReconciliationTests.Scratch(migrated: false)
        defer { try? FileManager.default.removeItem(at: scratch.dir) }
        try scratch.write("first.xml", ReconciliationTests.reply(ReconciliationTests.rows(1...20), count: 20))
        // A plan never migrates: on a database nobody migrated it stops, creating nothing.
        let unmigrated = try Self.plan(scratch, "first.xml")
        #expect(unmigrated.status == 1)
        #expect(unmigrated.stderr == "error: the database schema is at version 0, this mlsfeed needs "
            + "\(Migrations.latestVersion); run `mlsfeed db migrate`\n")
        #expect(try scratch.query("SELECT to_regclass('schema_migrations')::text") == [[nil]])
        let migrated = try CLI.run(["db", "migrate", "--database", scratch.database])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        let before = try Self.snapshot(scratch)
        let planned = try Self.plan(scratch, "first.xml", ["--format", "json"])
        #expect(planned.status == 0, "\(planned.stderr)")
        let plan = try #require(try parsedJSON(planned.stdout) as? [String: Any])
        #expect(Self.outcome(plan, "listings", "inserted") == (20, (1...10).map { String(format: "L%04d", $0) }))
        #expect(try Self.snapshot(scratch) == before)
    }
}
