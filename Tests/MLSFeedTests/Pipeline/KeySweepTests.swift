import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// The key sweep of a replicated Web API resource: only the keys are fetched, and the listings the server no longer
/// has (dropped without any `MlgCanView: false`) are withdrawn under the full-dump rules: complete only when every
/// page arrived and the count agrees, the withdraw guard, a refusal exiting 3, the sweep in the ledger. Against the
/// loopback OData server (`ODataServer`).
@Suite(.ownThread) struct KeySweepTests {
    typealias Web = ResoWebAPITests

    /// 30 listings, L1 to L30, modified a minute apart.
    static var market: [[String: Any]] { market(without: []) }

    /// A replicated pipeline of `market` (pages of 10), loaded once.
    struct Replica {
        let server: ODataServer
        let database: String
        let pipeline: URL

        init(sweepEvery: String? = nil, extra: String = "") throws {
            server = try ODataServer(records: KeySweepTests.market)
            database = try TestDatabase.migrated()
            let replication = "{ field: ModificationTimestamp, start: \"2026-01-01T00:00:00Z\""
                + (sweepEvery.map { ", key_sweep: { every: \($0) }" } ?? "") + " }"
            pipeline = try Web.pipeline(server, extra: extra, odata: "{ expand: [ListAgent], top: 10 }",
                                        replication: replication)
        }

        func runner(force: Bool = false) throws -> PipelineRunner {
            let config = try PipelineConfig.load(path: pipeline.path, project: ProjectConfig(),
                                                 environment: Web.environment)
            var options = RunOptions()
            options.conninfo = database
            options.force = force
            return PipelineRunner(config: config, options: options)
        }

        func sweep(force: Bool = false) throws -> RunSummary {
            try runner(force: force).sweep()
        }

        /// The listing ids off the market, in order.
        func withdrawn() throws -> [String] {
            try Connection(database).execute("""
                SELECT listing_id FROM listings WHERE off_market_at IS NOT NULL ORDER BY listing_id
                """).rows.map { $0[0] ?? "" }
        }

        func query(_ sql: String) throws -> [[String?]] {
            try Connection(database).execute(sql).rows
        }
    }

    /// `market` less the listings `gone`, those in `deleted` marked `MlgCanView: false`.
    static func market(without gone: Set<Int>, deleted: Set<Int> = []) -> [[String: Any]] {
        (1...30).filter { !gone.contains($0) }.map {
            Web.record($0, modified: String(format: "2026-11-01T10:%02d:00Z", $0), canView: !deleted.contains($0))
        }
    }

    @Test func listingsTheServerNoLongerHasAreWithdrawn() throws {
        let replica = try Replica()
        #expect(try replica.runner().run().load.inserted == 30)
        let before = try replica.query("SELECT mark::text, mark_key FROM replication_state")
        // Three listings are gone from the server without a word; a fourth is marked deleted.
        try replica.server.setRecords(Self.market(without: [3, 17, 29], deleted: [5]))
        let requests = replica.server.requests.count
        let sweep = try replica.sweep()
        #expect(sweep.status == .succeeded, "\(sweep.error ?? "")")
        #expect(sweep.mode == "sweep")
        #expect(sweep.read == 27)
        #expect(sweep.load.withdrawn == 4)
        #expect(sweep.load.inserted == 0 && sweep.load.updated == 0)
        #expect(sweep.completeness.isComplete)
        #expect(try replica.withdrawn() == ["L17", "L29", "L3", "L5"])
        // Only the keys, paged by key, counted; neither $expand nor the replication position.
        let asked = Array(replica.server.requests.dropFirst(requests))
        #expect(asked.count == 3)
        #expect(asked.first == "GET /odata/Property?$select=ListingId,ModificationTimestamp,MlgCanView&$top=10"
            + "&$orderby=ListingId&$count=true", "\(asked)")
        #expect(try replica.query("""
            SELECT mode, status, reconciled::text, complete::text, withdrawn::text FROM ingest_runs ORDER BY id
            """) == [["incremental", "succeeded", "false", "true", "0"], ["sweep", "succeeded", "true", "true", "4"]])
        #expect(try replica.query("SELECT count(*) FROM listing_history WHERE change = 'withdrawn'") == [["4"]])
        // The sweep is recorded; the replication position is the replication's own.
        #expect(try replica.query("SELECT mark::text, mark_key FROM replication_state") == before)
        #expect(try replica.query("SELECT swept_at IS NOT NULL FROM replication_state") == [["t"]])
    }

    @Test func anIncompleteKeyListWithdrawsNothing() throws {
        let replica = try Replica()
        #expect(try replica.runner().run().status == .succeeded)
        try replica.server.setRecords(Self.market(without: [3]))
        // The server ends after page 2 of 3 without a next link: 20 keys of the 29 it counted.
        try replica.server.setSettings(["stop_after_pages": 2])
        let sweep = try replica.sweep()
        #expect(sweep.status == .failed)
        #expect(sweep.failure == .refused)
        #expect(sweep.error == "error: key sweep is incomplete (COUNT 29 > 20 rows read); a key sweep withdraws only "
            + "what a complete list of the server's keys lacks: nothing was withdrawn")
        #expect(try replica.withdrawn() == [])
        #expect(try replica.query("SELECT mode, status FROM ingest_runs ORDER BY id DESC LIMIT 1")
            == [["sweep", "failed"]])
        #expect(try replica.query("SELECT swept_at IS NULL FROM replication_state") == [["t"]])
    }

    @Test func theWithdrawGuardHoldsUnlessForced() throws {
        let replica = try Replica()
        #expect(try replica.runner().run().status == .succeeded)
        try replica.server.setRecords(Self.market(without: Set(1...20)))
        let refused = try replica.sweep()
        #expect(refused.failure == .refused)
        #expect(refused.error == "error: key sweep found 10 of the 30 active listings of source actris on the "
            + "server, fewer than 50%: refusing to withdraw the rest (a server answering for part of its listings?); "
            + "rerun mlsfeed sweep with --force to withdraw them anyway")
        #expect(try replica.withdrawn() == [])
        let forced = try replica.sweep(force: true)
        #expect(forced.status == .succeeded, "\(forced.error ?? "")")
        #expect(forced.load.withdrawn == 20)
    }

    @Test func aReplicationRunSweepsWhenTheLastSweepIsOlderThanEvery() throws {
        let replica = try Replica(sweepEvery: "7d")
        // Never swept: the first run sweeps after it loads.
        let first = try replica.runner().runAll()
        #expect(first.map(\.mode) == ["incremental", "sweep"])
        #expect(first.map(\.status) == [.succeeded, .succeeded])
        try replica.server.setRecords(Self.market(without: [4]))
        // Swept a moment ago: the next run does not.
        #expect(try replica.runner().runAll().map(\.mode) == ["incremental"])
        #expect(try replica.withdrawn() == [])
        try Connection(replica.database).execute("UPDATE replication_state SET swept_at = now() - interval '8 days'")
        let later = try replica.runner().runAll()
        #expect(later.map(\.mode) == ["incremental", "sweep"])
        #expect(later.last?.load.withdrawn == 1)
        #expect(try replica.withdrawn() == ["L4"])
    }

    @Test func aPausedRunDoesNotSweep() throws {
        // A budget of 2 requests an hour stops the run after 2 of its 3 pages.
        let replica = try Replica(sweepEvery: "7d", extra: "    rate_limit: { requests_per_hour: 2 }")
        let paused = try replica.runner().runAll()
        #expect(paused.map(\.status) == [.paused])
        #expect(try replica.query("SELECT swept_at IS NULL FROM replication_state") == [["t"]])
    }
}

/// `mlsfeed sweep` and the load mode of a replicated pipeline on the command line.
@Suite(.ownThread) struct SweepCommandTests {
    @Test func sweepExitsZeroThenThreeWhenRefused() throws {
        let replica = try KeySweepTests.Replica()
        let dir = replica.pipeline.deletingLastPathComponent()
        let environment = ResoWebAPITests.environment
        let run = try CLI.run(["run", "reso.yaml", "--database", replica.database, "--quiet"], in: dir,
                              environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        try replica.server.setRecords(KeySweepTests.market(without: [2]))
        let swept = try CLI.run(["sweep", "reso.yaml", "--database", replica.database, "--quiet"], in: dir,
                                environment: environment)
        #expect(swept.status == 0, "\(swept.stderr)")
        #expect(try replica.withdrawn() == ["L2"])
        try replica.server.setRecords(KeySweepTests.market(without: Set(1...25)))
        let refused = try CLI.run(["sweep", "reso.yaml", "--database", replica.database, "--quiet"], in: dir,
                                  environment: environment)
        #expect(refused.status == 3)
        #expect(refused.stderr.contains("error: key sweep found 5 of the 29 active listings of source actris on the "
            + "server, fewer than 50%"), "\(refused.stderr)")
    }

    @Test func aFullRunOfAReplicatedPipelineIsAConfigurationError() throws {
        let replica = try KeySweepTests.Replica()
        let dir = replica.pipeline.deletingLastPathComponent()
        let result = try CLI.run(["run", "reso.yaml", "--mode", "full", "--database", replica.database], in: dir,
                                 environment: ResoWebAPITests.environment)
        #expect(result.status == 2)
        #expect(result.stderr == "reso.yaml: error: --mode full: a replicated source (source.http.replication) reads "
            + "only what changed, never a complete dump, so a full run would withdraw every listing the delta did "
            + "not carry; withdraw what the server no longer has with the key sweep (mlsfeed sweep reso)\n")
        #expect(try replica.query("SELECT count(*) FROM ingest_runs") == [["0"]])
    }

    @Test func aPipelineWithoutReplicationHasNoKeySweep() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sweep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
            source: { id: sdmls }
            format: { type: triples }
            mapping:
              fields: { listing_id: { from: mls_number, type: text } }
            """.write(to: dir.appendingPathComponent("nightly.yaml"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["sweep", "nightly.yaml", "--database", "postgresql:///none"], in: dir)
        #expect(result.status == 2)
        #expect(result.stderr == "nightly.yaml: error: pipeline nightly is no replicated Web API source "
            + "(source.http.replication): a key sweep compares a replica's listings with the server's keys\n")
    }
}
