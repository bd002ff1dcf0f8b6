import Foundation
import MLSFeed
import Postgres
import PostgresTestSupport
import Testing

private typealias F = LoadFixtures

/// An older copy never overwrites a newer row, whatever the interleaving: the merge's UPDATE tests freshness
/// against the row it writes, not only against the snapshot it read. Driven without the source's lock (which keeps
/// two runs of a source apart): a second transaction writes a newer copy of the listing and holds it uncommitted
/// while the run's merge reads the older stored row, finds its own copy fresh and waits for the row; the second then
/// commits. Deterministic: the test waits (polled, bounded) until the run's backend waits on that row's lock.
@Suite(.ownThread) struct MergeFreshnessTests {
    static let stored = "2026-11-01T10:00:00Z", older = "2026-11-10T10:00:00Z", newer = "2026-11-20T10:00:00Z"

    /// The run merges at the end (0) or while it stages (1: every staged listing, `MergeStatements.earlyMerge`).
    @Test(arguments: [0, 1])
    func anOlderCopyNeverOverwritesARowANewerWriterCommittedMeanwhile(earlyMergeRows: Int) throws {
        let db = try TestDatabase.migrated()
        try F.load(db, [F.listing("A", price: "500000", modified: Self.stored), F.listing("B")])
        let writer = try Connection(db)
        try writer.execute("BEGIN")
        try writer.execute("""
            UPDATE listings SET list_price = 700000, modification_timestamp = $1, content_hash = 'newer'
            WHERE listing_id = 'A'
            """, [Self.newer])
        let session = try LoadSession(conninfo: db, options: F.options(earlyMergeRows: earlyMergeRows))
        let runID = session.runID
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: Result<LoadResult, any Error>?
        Thread {
            outcome = Result {
                try session.write([F.listing("A", price: "600000", modified: Self.older)])
                return try session.commit(read: 1, rejected: 0, inputs: [], timings: [:], warnings: [])
            }
            done.signal()
        }.start()
        let watcher = try Connection(db)
        let deadline = Date().addingTimeInterval(60)
        while try watcher.execute("""
            SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'
            """, ["mlsfeed load run \(runID)"]).rows[0][0] == "0" {
            guard Date() < deadline else {
                try writer.execute("ROLLBACK")
                done.wait()
                Issue.record("the run's merge never waited for the row: \(String(describing: outcome))")
                return
            }
            usleep(20_000)
        }
        try writer.execute("COMMIT")
        done.wait()
        let result = try #require(try outcome?.get())
        #expect(result.updated == 0)
        #expect(result.stale == 1)
        #expect(try F.query(db, """
            SELECT list_price::text, to_char(modification_timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
            FROM listings WHERE listing_id = 'A'
            """) == [["700000.00", Self.newer]])
        #expect(try F.query(db, "SELECT count(*) FROM listing_history WHERE run_id = $1", [String(runID)]) == [["0"]])
    }
}
