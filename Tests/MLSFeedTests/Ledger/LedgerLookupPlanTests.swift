import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// The statements that find ledger rows by id read them through an index led by what they look up, now that the
/// primary keys of `ingest_runs`, `rejects` and `listing_history` are `(source, id)` (migration 20): a run by its id
/// alone, a run's rejects a page at a time, prune's deletes, the run's final update, the reject replay's mark and the
/// history's runs. Each is the code's own SQL, planned with its parameters on a migrated database of a few hundred
/// runs and rejects over three sources, with sequential scans disabled so that the plan shows the index the
/// statement can use (a missing one shows as a sequential scan, or a scan of a whole index keyed by something else).
@Suite(.ownThread) struct LedgerLookupPlanTests {
    /// A statement, its parameters and the indexes it may read `ingest_runs`, `rejects` and `listing_history`
    /// through.
    struct Lookup: CustomTestStringConvertible, Sendable {
        let name: String
        let sql: String
        let parameters: [String?]
        let indexes: Set<String>

        var testDescription: String { name }
    }

    /// The run whose rejects are paged: the one with many.
    static let pagedRun = "150"

    /// Every statement that finds these rows by id, with the indexes that serve it.
    static let lookups: [Lookup] = [
        Lookup(name: "runs", sql: Ledger.newestRuns, parameters: [nil, "20"], indexes: ["ingest_runs_id_idx"]),
        Lookup(name: "runs show", sql: Ledger.runByID, parameters: ["77"], indexes: ["ingest_runs_id_idx"]),
        Lookup(name: "runs show (detail)", sql: Ledger.runDetailByID, parameters: ["77"],
               indexes: ["ingest_runs_id_idx", "rejects_run_order_idx", "rejects_run_idx"]),
        Lookup(name: "rejects --last", sql: Ledger.lastSucceeded, parameters: [nil],
               indexes: ["ingest_runs_id_idx"]),
        Lookup(name: "rejects --run (start)", sql: Ledger.rejectsStart, parameters: [pagedRun],
               indexes: ["rejects_run_order_idx"]),
        Lookup(name: "rejects --run (page)", sql: Ledger.rejectsPage, parameters: [pagedRun, "0", nil, "1000"],
               indexes: ["rejects_run_order_idx"]),
        Lookup(name: "rejects --run --reason (page)", sql: Ledger.rejectsPage,
               parameters: [pagedRun, "0", "price", "1000"], indexes: ["rejects_run_order_idx"]),
        Lookup(name: "prune (runs with rejects)", sql: Ledger.runsWithDoomedRejects,
               parameters: ["{1,2,3}", "2026-01-01T00:00:00Z"],
               indexes: ["rejects_run_order_idx", "rejects_run_idx", "ingest_runs_id_idx"]),
        Lookup(name: "prune (runs)", sql: Ledger.deleteRuns, parameters: ["{1,2,3}"], indexes: ["ingest_runs_id_idx"]),
        Lookup(name: "prune (rejects)", sql: Ledger.deleteRejects, parameters: ["{1,2,3}", "1000"],
               indexes: ["rejects_pkey", "rejects_run_order_idx", "rejects_run_idx"]),
        Lookup(name: "run's final update", sql: LoadSession.ledgerRowUpdate,
               parameters: ["77"] + Array(repeating: nil, count: 24) + ["src2"],
               indexes: ["ingest_runs_pkey", "ingest_runs_id_idx"]),
        Lookup(name: "rejects replay (mark)", sql: LoadSession.replayedMark, parameters: ["300", pagedRun, "src0"],
               indexes: ["rejects_run_order_idx", "rejects_run_idx"]),
        Lookup(name: "history", sql: Ledger.changes, parameters: ["src1", "L7"],
               indexes: ["listing_history_listing_idx", "ingest_runs_pkey", "ingest_runs_id_idx"]),
    ]

    /// A migrated database with 300 runs of three sources (interleaved, as a night's runs are), 20 rejects for each
    /// of 30 of them and 400 for run 150, and 300 history rows.
    static func database() throws -> Connection {
        let connection = try Connection(TestDatabase.migrated())
        try connection.executeScript("""
            INSERT INTO ingest_runs (pipeline, source, mode, status)
            SELECT 'p' || n % 3, 'src' || n % 3, 'full', 'succeeded' FROM generate_series(1, 300) AS n ORDER BY n;
            INSERT INTO rejects (run_id, source, entity, key, file, line, column_number, ordinal, reasons, raw)
            SELECT r.id, r.source, 'listing', 'L' || k, 'feed.xml', k, 1, k, ARRAY['list_price: not a price'], '[]'
            FROM ingest_runs r, generate_series(1, 400) AS k
            WHERE (r.id % 10 = 0 AND k <= 20) OR r.id = 150
            ORDER BY r.id, k;
            INSERT INTO listing_history (source, listing_id, run_id, change, old_price, new_price)
            SELECT 'src' || n % 3, 'L' || n % 50, n, 'price', 2, 1 FROM generate_series(1, 300) AS n;
            ANALYZE ingest_runs, rejects, listing_history;
            SET enable_seqscan = off;
            """)
        return connection
    }

    @Test(arguments: lookups)
    func aLookupByIDReadsAnIndex(_ lookup: Lookup) throws {
        let connection = try Self.database()
        let plan = try #require(try connection.execute("EXPLAIN (FORMAT JSON) " + lookup.sql, lookup.parameters)
            .rows.first?.first ?? nil)
        let scans = try Self.scans(inPlan: plan)
        #expect(!scans.isEmpty, "\(plan)")
        for scan in scans {
            #expect(scan.index.map(lookup.indexes.contains) == true,
                    "\(lookup.name): \(scan.node) of \(scan.table) \(scan.index ?? "")")
        }
    }

    /// The reads of `ingest_runs`, `rejects` and `listing_history` in a JSON plan: node type, table and the index
    /// read (nil for a read through none, such as a sequential scan). A bitmap scan counts as its index scans.
    static func scans(inPlan json: String) throws -> [(node: String, table: String, index: String?)] {
        let tables = ["ingest_runs", "rejects", "listing_history"]
        let top = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []
        var found: [(node: String, table: String, index: String?)] = []
        var nodes = top.compactMap { $0["Plan"] as? [String: Any] }
        while let node = nodes.popLast() {
            nodes += node["Plans"] as? [[String: Any]] ?? []
            let type = node["Node Type"] as? String ?? ""
            if let index = node["Index Name"] as? String,
               let table = tables.first(where: { index.hasPrefix($0 + "_") }) {
                found.append((type, table, index))
            } else if let table = node["Relation Name"] as? String, tables.contains(table), type.hasSuffix("Scan"),
                      type != "Bitmap Heap Scan" {
                found.append((type, table, nil))
            }
        }
        return found
    }
}
