import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed
@testable import MLSFeedFixtures

/// Several worker machines (processes of the built binary, each with its own config, data directory and copy of
/// the feeds) given overlapping pipelines against one database: each source is loaded by one worker at a time, the
/// others report it busy and exit 4, and nothing is lost or loaded twice.
@Suite(.ownThread) struct OverlappingWorkersTests {
    typealias Machine = JobsFeeds.Machine

    static func rows(_ database: String, _ sql: String) throws -> [[String?]] {
        try Connection(database).execute(sql).rows
    }

    /// Worker A loads s1 and s2, worker B s2 (its own pipeline file, another name) and s3. A's runs are held once
    /// their inputs are open (`TestPause.fetch`, their sources' locks held) while B runs, so B meets A's s2 every
    /// time: it waits its `lock_timeout`, exits 4 naming A's run, and still loads s3. A then finishes; B's retry (as
    /// its systemd unit would) loads s2 again and writes nothing new. The database ends as one serial load of the
    /// three sources leaves it.
    @Test func overlappingWorkersLoadEachSourceOnceAndReportTheOthersBusy() throws {
        let database = try TestDatabase.migrated()
        let a = try Machine("a", pipelines: [("s1", "s1"), ("s2", "s2")], load: "lock_timeout: 1")
        let b = try Machine("b", pipelines: [("s2-b", "s2"), ("s3", "s3")], load: "lock_timeout: 1")

        let first = try a.start(["s1", "s2"], ["--jobs", "2", "--no-progress"], database: database,
                                environment: a.pause(at: .fetch))
        try JobsFeeds.waitUntil("worker A holds s1 and s2") {
            // Polled from before the schema exists.
            (try? Self.rows(database, "SELECT count(*)::text FROM ingest_runs WHERE status = 'running'")) == [["2"]]
        }
        let held = try #require(try Self.rows(database, """
            SELECT id::text, to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') FROM ingest_runs
            WHERE pipeline = 's2' AND status = 'running'
            """).first)
        let busy = "source busy (run \(held[0]!) of pipeline s2, started at \(held[1]!))"

        let second = try b.start(["s2-b", "s3"], ["--jobs", "2", "--no-progress"], database: database).wait()
        #expect(second.status == 4, "\(second.stderr)")
        #expect(second.stderr.contains(" warning s2-b: \(busy): waiting up to 1 s (load.lock_timeout)\n"),
                "\(second.stderr)")
        #expect(second.stderr.contains("\nmlsfeed: pipeline s2-b, source s2, mode full: failed\nerror: \(busy)\n"),
                "\(second.stderr)")
        let s3 = try JobsFeeds.truth("s3")
        let total = second.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(total.hasPrefix("mlsfeed: 2 pipelines: 1 succeeded, 1 failed (s2-b: exit 4, \(busy)); "
            + "read \(s3.records), rejected \(s3.rejects), duplicates \(s3.duplicates); inserted \(s3.uniqueValid), "
            + "updated 0, unchanged 0, stale 0, withdrawn 0; "), "\(second.stderr)")
        #expect(total.range(of: #"withdrawn 0; \d+\.\d\d s$"#, options: .regularExpression) != nil)
        #expect(second.stdout.contains("mlsfeed: pipeline s3 run "), "\(second.stdout)")

        try a.resume()
        let firstResult = first.wait()
        #expect(firstResult.status == 0, "\(firstResult.stderr)")
        let retry = try b.start(["s2-b", "s3"], ["--jobs", "2", "--no-progress"], database: database).wait()
        #expect(retry.status == 0, "\(retry.stderr)")

        // One succeeded run per source per attempt that got the source: A's s1 and s2, B's s3, then B's retry of
        // s2 (every listing already there) and of s3 (its input unchanged). B's busy attempt left no row.
        let ledger = try Self.rows(database, """
            SELECT pipeline, source, status, inserted::text, updated::text, unchanged::text FROM ingest_runs
            ORDER BY pipeline, id
            """)
        let truth = try ["s1", "s2", "s3"].reduce(into: [String: Int]()) {
            $0[$1] = try JobsFeeds.truth($1).uniqueValid
        }
        #expect(ledger == [
            ["s1", "s1", "succeeded", "\(truth["s1"]!)", "0", "0"],
            ["s2", "s2", "succeeded", "\(truth["s2"]!)", "0", "0"],
            ["s2-b", "s2", "succeeded", "0", "0", "\(truth["s2"]!)"],
            ["s3", "s3", "succeeded", "\(truth["s3"]!)", "0", "0"],
            ["s3", "s3", "unchanged", "0", "0", "0"],
        ])
        for source in ["s1", "s2", "s3"] {
            #expect(try Self.rows(database, """
                SELECT count(*)::text, count(DISTINCT listing_id)::text FROM listings WHERE source = '\(source)'
                """) == [["\(truth[source]!)", "\(truth[source]!)"]])
        }

        // Nothing lost, nothing doubled: the same listings, agents and history as one serial load.
        let reference = try TestDatabase.migrated()
        let serial = try Machine("serial", pipelines: [("s1", "s1"), ("s2", "s2"), ("s3", "s3")])
        let clean = try serial.start(["s1", "s2", "s3"], ["--no-progress", "--quiet"], database: reference).wait()
        #expect(clean.status == 0, "\(clean.stderr)")
        #expect(try JobsFeeds.content(database) == JobsFeeds.content(reference))
    }
}
