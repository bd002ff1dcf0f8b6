import Foundation
import Postgres
import PostgresTestSupport
import Testing

/// `mlsfeed rejects replay` through the built binary on a real PostgreSQL: after a mapping fix the rejected records
/// load from their stored raw fields, as a new incremental run; the rejects stay, marked replayed by it.
@Suite(.ownThread) struct RejectsReplayTests {
    @Test func aReplayAfterAMappingFixLoadsTheRejectsAndMarksThem() throws {
        let scratch = try ReconciliationTests.Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.dir) }
        // A mapping with a bad price rule: nothing above a million.
        let shipped = try String(contentsOf: CLI.packageRoot.appendingPathComponent("pipelines/mappings/reso.yaml"),
                                 encoding: .utf8)
        let rule = "list_price:             { from: ListPrice, type: money, required: true, min: 0 }"
        try #require(shipped.contains(rule))
        try scratch.write("mapping.yaml", shipped.replacingOccurrences(
            of: rule, with: "list_price: { from: ListPrice, type: money, required: true, min: 0, max: 1000000 }"))
        try scratch.write("rets.yaml", """
            name: rets
            source:
              id: crmls
              time_zone: America/Los_Angeles
            format: { type: rets-compact }
            mapping: \(scratch.dir.appendingPathComponent("mapping.yaml").path)
            load:
              mode: full
              max_reject_ratio: 0.5
            """)
        var rows = ReconciliationTests.rows(1...20)
        for i in 4...6 { rows[i].price = 2_000_000 + i }
        let reply = ReconciliationTests.reply(rows, count: 20)
            .replacingOccurrences(of: "L0008\tActive\t500008", with: "L0008\tActive\tcall agent")
        try scratch.write("night.xml", reply)
        let first = try scratch.run("night.xml")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try scratch.query("SELECT inserted::text, rejected::text FROM ingest_runs") == [["16", "4"]])

        // The operator fixes the mapping, then replays run 1's rejects (the run's own pipeline, found by name).
        try scratch.write("mapping.yaml", shipped)
        let replay = try CLI.run(["rejects", "replay", "--run", "1", "--database", scratch.database], in: scratch.dir)
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout == """
            run 2: replayed 4 rejects of run 1 through the current mapping of rets.yaml
              listings: inserted 3, updated 0, unchanged 0, stale 0; agents: inserted 0, updated 0, unchanged 0
              rejected again: 1 (`mlsfeed rejects --run 2`)
              the rejects of run 1 stay, marked replayed by run 2

            """)
        #expect(try scratch.query("""
            SELECT listing_id, list_price::text, first_seen_run::text FROM listings
            WHERE listing_id IN ('L0005', 'L0006', 'L0007', 'L0008') ORDER BY 1
            """) == [["L0005", "2000004.00", "2"], ["L0006", "2000005.00", "2"], ["L0007", "2000006.00", "2"]])
        let rejects = try scratch.query("""
            SELECT run_id::text, key, replayed_by::text, line::text, file FROM rejects ORDER BY id
            """)
        #expect(rejects == [
                ["1", "L0005", "2", "10", "night.xml"], ["1", "L0006", "2", "11", "night.xml"],
                ["1", "L0007", "2", "12", "night.xml"], ["1", "L0008", "2", "13", "night.xml"],
                // Rejected again at its original place in the feed.
                ["2", "L0008", nil, "13", "night.xml"],
            ], "\(rejects)")
        #expect(try scratch.query("""
            SELECT mode, status, inputs->0->>'location', read::text, rejected::text, inserted::text
            FROM ingest_runs WHERE id = 2
            """) == [["incremental", "succeeded", "rejects of run 1", "4", "1", "3"]])
        // The history stays listed.
        let listed = try CLI.run(["rejects", "--run", "1", "--format", "jsonl", "--database", scratch.database])
        let objects = try listed.stdout.split(separator: "\n").map { try parsedJSON(String($0)) as? [String: Any] }
        #expect(objects.map { $0?["replayed_by"] as? Int } == [2, 2, 2, 2])
        let table = try CLI.run(["rejects", "--run", "1", "--database", scratch.database])
        #expect(table.stdout.hasSuffix("\n4 rejects; replayed by run 2 (`mlsfeed rejects replay`)\n"))

        // Replaying again is refused, naming the replay; what failed again is run 2's to replay.
        let again = try CLI.run(["rejects", "replay", "--run", "1", "--database", scratch.database], in: scratch.dir)
        #expect(again.status == 3)
        #expect(again.stderr == "error: the rejects of run 1 were already replayed by run 2; nothing left to replay "
            + "(records that failed again are rejects of the replay run: `mlsfeed rejects replay --run 2`)\n")
        let still = try CLI.run(["rejects", "replay", "--run", "2", "--pipeline", "rets.yaml", "--database",
                                 scratch.database], in: scratch.dir)
        #expect(still.status == 0, "\(still.stderr)")
        #expect(still.stdout.hasPrefix("run 3: replayed 1 reject of run 2 "))
        #expect(try scratch.query("SELECT count(*)::text FROM rejects WHERE run_id = 3 AND key = 'L0008'") == [["1"]])
        #expect(try scratch.query("SELECT count(*)::text FROM ingest_runs") == [["3"]])

        let missing = try CLI.run(["rejects", "replay", "--run", "9", "--database", scratch.database], in: scratch.dir)
        #expect(missing.status == 1 && missing.stderr == "error: no run 9 in the ledger (never recorded, or pruned)\n")
    }

    @Test func jsonRecordsReplayThroughThePipelinesJSONReader() throws {
        let scratch = try ReconciliationTests.Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.dir) }
        let shipped = try String(contentsOf: CLI.packageRoot.appendingPathComponent("pipelines/mappings/reso.yaml"),
                                 encoding: .utf8)
        let rule = "list_price:             { from: ListPrice, type: money, required: true, min: 0 }"
        try scratch.write("mapping.yaml", shipped.replacingOccurrences(
            of: rule, with: "list_price: { from: ListPrice, type: money, required: true, min: 0, max: 1000000 }"))
        try scratch.write("reso.yaml", """
            name: reso
            source:
              id: actris
              time_zone: America/Chicago
            format: { type: reso-json }
            mapping: \(scratch.dir.appendingPathComponent("mapping.yaml").path)
            load: { mode: incremental, max_reject_ratio: 0.9 }
            """)
        try scratch.write("records.jsonl", """
            {"ListingId": "J1", "StandardStatus": "Active", "ListPrice": 2500000, "City": "Austin", \
            "ModificationTimestamp": "2026-11-01T10:00:00Z", "ListAgent": {"MemberMlsId": "A1"}}
            {"ListingId": "J2", "StandardStatus": "Active", "ListPrice": 400000, "City": "Austin", \
            "ModificationTimestamp": "2026-11-01T10:00:00Z"}

            """)
        let first = try CLI.run(["run", "reso.yaml", "--input", "records.jsonl", "--database", scratch.database,
                                 "--quiet", "--no-progress"], in: scratch.dir)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try scratch.query("SELECT listing_id FROM listings") == [["J2"]])
        #expect(try scratch.query("SELECT jsonb_typeof(raw) FROM rejects") == [["object"]])

        try scratch.write("mapping.yaml", shipped)
        let replay = try CLI.run(["rejects", "replay", "--run", "1", "--database", scratch.database], in: scratch.dir)
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(try scratch.query("""
            SELECT listing_id, list_price::text, city, first_seen_run::text FROM listings ORDER BY 1
            """) == [["J1", "2500000.00", "Austin", "2"], ["J2", "400000.00", "Austin", "1"]])
        #expect(try scratch.query("SELECT replayed_by::text FROM rejects") == [["2"]])
    }
}
