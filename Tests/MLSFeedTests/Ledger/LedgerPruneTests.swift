import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// `Ledger.prune` against a real PostgreSQL: what goes, what stays whatever its age, batches and dry runs.
@Suite struct LedgerPruneTests {
    /// Runs and rejects of every kind the prune must tell apart.
    struct Scenario {
        let connection: Connection
        let ledger: Ledger
        var ids: [String: Int64] = [:]

        init() throws {
            (_, connection, ledger) = try LedgerTests.ledger()
            func run(_ name: String, pipeline: String = "nightly", source: String = "sdmls",
                     status: String = "succeeded", daysAgo: Int, asOf: String? = nil, reconciled: Bool = false,
                     rejects: Int = 0) throws {
                let id = try LedgerTests.insertRun(connection, pipeline: pipeline, source: source, status: status,
                                                   daysAgo: daysAgo, asOf: asOf, reconciled: reconciled)
                ids[name] = id
                try LedgerTests.insertRejects(connection, run: id, count: rejects)
            }
            // The source's newest dump, reconciled: later full runs compare their as-of time with it.
            try run("newestDump", daysAgo: 400, asOf: "2026-06-01T00:00:00Z", reconciled: true, rejects: 2)
            try run("olderDump", daysAgo: 300, asOf: "2026-01-01T00:00:00Z", rejects: 3)
            try run("failed", status: "failed", daysAgo: 250)
            // The source's newest succeeded run: change detection compares with its inputs.
            try run("lastSucceeded", daysAgo: 200, asOf: "2025-12-01T00:00:00Z", rejects: 1)
            try run("dead", status: "running", daysAgo: 190)
            // The only run of another pipeline and source: how that pipeline last ended.
            try run("lonelyFailure", pipeline: "weekly", source: "crmls", status: "failed", daysAgo: 365)
            try run("young", pipeline: "hourly", source: "ddf", daysAgo: 10, rejects: 4)
            // Rejects whose run is gone from the ledger.
            try LedgerTests.insertRejects(connection, run: 9999, count: 2)
            // Listings, agents and history never go, whatever their runs.
            try connection.execute("""
                INSERT INTO listings (source, listing_id, content_hash, first_seen_run, last_changed_run)
                VALUES ('sdmls', 'A', 'h', $1, $2)
                """, [String(ids["olderDump"]!), String(ids["failed"]!)])
            try connection.execute("""
                INSERT INTO listing_history (source, listing_id, run_id, change) VALUES ('sdmls', 'A', $1, 'withdrawn')
                """, [String(ids["olderDump"]!)])
        }

        func remainingRuns() throws -> [Int64] {
            try connection.execute("SELECT id FROM ingest_runs ORDER BY id").rows.map { Int64($0[0]!)! }
        }

        func count(_ table: String) throws -> Int {
            try LedgerTests.count(connection, "SELECT count(*) FROM \(table)")
        }
    }

    @Test func oldRunsGoExceptThoseLaterRunsAndTheMetricsNeed() throws {
        let scenario = try Scenario()
        let policy = PrunePolicy(runsOlderThan: RetentionAge("180d"), rejectsOlderThan: RetentionAge("90d"))
        let before = try scenario.remainingRuns()

        let planned = try scenario.ledger.prune(policy, dryRun: true)
        var expected = PruneResult()
        expected.runs = 2
        expected.rejects = 3 + 2 + 1 + 2
        expected.keptRuns = 3
        expected.dryRun = true
        #expect(planned == expected)
        #expect(try scenario.remainingRuns() == before)
        #expect(try scenario.count("rejects") == 2 + 3 + 1 + 4 + 2)

        var small = policy
        small.batchSize = 2
        let done = try scenario.ledger.prune(small)
        expected.dryRun = false
        #expect(done == expected)
        let ids = scenario.ids
        #expect(try scenario.remainingRuns() == ["newestDump", "lastSucceeded", "dead", "lonelyFailure", "young"]
            .map { ids[$0]! })
        let rejectRuns = try scenario.connection.execute("SELECT DISTINCT run_id FROM rejects").rows
        #expect(rejectRuns == [[String(ids["young"]!)]])
        #expect(try scenario.count("listings") == 1)
        #expect(try scenario.count("listing_history") == 1)

        // Nothing is left to prune.
        var again = PruneResult()
        again.keptRuns = 3
        #expect(try scenario.ledger.prune(policy) == again)
    }

    @Test func rejectsAloneCanGoWhileEveryRunStays() throws {
        let scenario = try Scenario()
        let before = try scenario.remainingRuns()
        let result = try scenario.ledger.prune(PrunePolicy(rejectsOlderThan: RetentionAge("30d")))
        #expect(result.runs == 0 && result.keptRuns == 0 && result.rejects == 2 + 3 + 1 + 2)
        #expect(try scenario.remainingRuns() == before)
        #expect(try scenario.count("rejects") == 4)
    }

    @Test func youngRunsStay() throws {
        let scenario = try Scenario()
        let result = try scenario.ledger.prune(PrunePolicy(runsOlderThan: RetentionAge("500d")))
        // Only the orphaned rejects go: their run is no longer in the ledger.
        #expect(result.runs == 0 && result.rejects == 2)
    }
}
