import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// The ledger's read queries against a real PostgreSQL, on rows the loader itself wrote where it can write them.
@Suite(.ownThread) struct LedgerTests {
    /// A migrated fresh database and a ledger on it.
    static func ledger() throws -> (conninfo: String, connection: Connection, ledger: Ledger) {
        let conninfo = try TestDatabase.migrated()
        let connection = try Connection(conninfo)
        try Migrations.apply(connection)
        return (conninfo, connection, Ledger(connection))
    }

    /// A ledger row as a run of `pipeline` leaves it, `daysAgo` days old.
    @discardableResult
    static func insertRun(_ connection: Connection, pipeline: String = "nightly", source: String = "sdmls",
                          status: String = "succeeded", daysAgo: Int = 0, asOf: String? = nil,
                          reconciled: Bool = false) throws -> Int64 {
        let row = try connection.execute("""
            INSERT INTO ingest_runs (pipeline, source, mode, status, started_at, finished_at, as_of, reconciled)
            VALUES ($1, $2, 'full', $3, now() - $4::int * interval '1 day',
                    now() - $4::int * interval '1 day' + interval '90 seconds', $5::timestamptz, $6)
            RETURNING id
            """, [pipeline, source, status, String(daysAgo), asOf, reconciled ? "true" : "false"])
        return Int64(row.rows[0][0]!)!
    }

    /// `count` rejects of run `run`, the first `priced` of them for a bad price, the rest for a missing id.
    static func insertRejects(_ connection: Connection, run: Int64, count: Int, priced: Int = 0) throws {
        try connection.execute("""
            INSERT INTO rejects (run_id, source, entity, key, file, line, column_number, ordinal, reasons, raw)
            SELECT $1, 'sdmls', 'listing', 'L' || n, 'feed.xml', n + 1, 3, n,
                   CASE WHEN n < $3 THEN ARRAY['list_price: not a price ("call agent")']
                        ELSE ARRAY['listing_id: required field is missing'] END,
                   jsonb_build_array(jsonb_build_array('mls_number', 'L' || n), jsonb_build_array('list_price', 'x'))
            FROM generate_series(0, $2 - 1) AS n
            """, [String(run), String(count), String(priced)])
    }

    static func count(_ connection: Connection, _ sql: String) throws -> Int {
        Int(try connection.execute(sql).rows[0][0]!)!
    }

    @Test func runsAreListedNewestFirstByPipelineAndLimited() throws {
        let (_, connection, ledger) = try Self.ledger()
        let first = try Self.insertRun(connection, pipeline: "nightly")
        let second = try Self.insertRun(connection, pipeline: "weekly", status: "failed")
        let third = try Self.insertRun(connection, pipeline: "nightly", status: "unchanged")
        #expect(try ledger.runs().map(\.id) == [third, second, first])
        #expect(try ledger.runs(limit: 2).map(\.id) == [third, second])
        #expect(try ledger.runs(pipeline: "nightly").map(\.id) == [third, first])
        #expect(try ledger.runs(pipeline: "monthly").isEmpty)
        let run = try #require(try ledger.run(id: second))
        #expect(run.pipeline == "weekly" && run.status == "failed" && run.mode == "full")
        #expect(run.seconds.map { abs($0 - 90) < 0.001 } == true)
        #expect(try ledger.run(id: 999) == nil)
        #expect(try ledger.lastSucceededRun()?.id == first)
        #expect(try ledger.lastSucceededRun(pipeline: "weekly") == nil)
    }

    /// A run committed by `LoadSession` reads back whole: inputs, counts, timings in stage order, warnings with
    /// quotes and commas, completeness, as-of time, first rejects and the rejects stored.
    @Test func aRunReadsBackEverythingTheLoaderWrote() throws {
        let (conninfo, _, ledger) = try Self.ledger()
        let session = try LoadSession(conninfo: conninfo, options: LoadFixtures.options(.incremental))
        try session.write([LoadFixtures.listing("A"), LoadFixtures.listing("B")])
        try session.write(rejects: [LoadFixtures.reject("C", ordinal: 2)])
        var totals = RunTotals(read: 3, rejected: 1, inputs: [
            InputIdentity(location: "dumps/a.xml", bytes: 100, sha256: "ab"),
            InputIdentity(location: "https://mls.example.com/feed?key=***", etag: "\"v1\"",
                          lastModified: "Sat, 28 Nov 2026 10:00:00 GMT"),
        ], timings: ["load": 0.5, "parse": 0.25, "fetch": 0.125, "normalize": 1], warnings: [
            "dumps/a.xml: no <listing> elements, \"format.record\"",
        ])
        totals.sampleRejects = ["feed.xml:7:3: error: MLS C: list_price: not a price (\"call agent\")"]
        totals.completeness = Completeness(reasons: ["MAXROWS", "COUNT 5 > 3 rows read"])
        totals.headerAsOf = "2026-11-28T10:00:00Z"
        totals.removedCharacters = 2
        let result = try session.commit(totals)

        let detail = try #require(try ledger.runDetail(id: result.runID))
        #expect(detail.run.status == "succeeded" && detail.run.pipeline == "nightly" && detail.run.source == "sdmls")
        #expect(detail.run.counts.read == 3 && detail.run.counts.rejected == 1 && detail.run.counts.inserted == 2)
        #expect(detail.run.counts.removedCharacters == 2)
        #expect(detail.inputs == totals.inputs)
        #expect(detail.timings.map(\.stage) == ["fetch", "parse", "normalize", "load"])
        #expect(detail.timings.map(\.seconds) == [0.125, 0.25, 1, 0.5])
        #expect(detail.warnings.first == "dumps/a.xml: no <listing> elements, \"format.record\"")
        #expect(detail.sampleRejects == totals.sampleRejects)
        #expect(detail.complete == false)
        #expect(detail.incompleteReasons == ["MAXROWS", "COUNT 5 > 3 rows read"])
        #expect(detail.asOf == ISO8601DateFormatter().date(from: "2026-11-28T10:00:00Z"))
        #expect(detail.reconciled == false)
        #expect(detail.storedRejects == 1)
        #expect(detail.run.finishedAt != nil && detail.run.error == nil)
        #expect(try ledger.runDetail(id: result.runID + 1) == nil)
    }

    @Test func aListingsHistoryNamesItsRunsAndKeepsThoseOfPrunedRuns() throws {
        let (conninfo, connection, ledger) = try Self.ledger()
        try LoadFixtures.load(conninfo, [LoadFixtures.listing("A", price: "500000")])
        let second = try LoadFixtures.load(conninfo, [LoadFixtures.listing("A", price: "480000",
                                                                            modified: "2026-11-02T10:00:00Z")])
        try LoadFixtures.load(conninfo, [LoadFixtures.listing("A", price: "470000", status: "Pending",
                                                               modified: "2026-11-03T10:00:00Z")])
        try connection.execute("DELETE FROM ingest_runs WHERE id = $1", [String(second.runID)])

        let history = try ledger.history(listingID: "A")
        #expect(history.count == 1)
        let listing = try #require(history.first)
        #expect(listing.source == "sdmls" && listing.standardStatus == "Pending" && listing.listPrice == "470000.00")
        #expect(listing.firstSeenRun == second.runID - 1 && listing.lastChangedRun == second.runID + 1)
        #expect(listing.changes.map(\.change) == ["price", "price+status"])
        #expect(listing.changes.map(\.runID) == [second.runID, second.runID + 1])
        #expect(listing.changes.map(\.pipeline) == [nil, "nightly"])
        #expect(listing.changes.map(\.oldPrice) == ["500000.00", "480000.00"])
        #expect(listing.changes.map(\.newStatus) == ["Active", "Pending"])
        #expect(listing.changes[0].modificationTimestamp == ISO8601DateFormatter().date(from: "2026-11-02T10:00:00Z"))
        #expect(try ledger.history(listingID: "A", source: "other").isEmpty)
        #expect(try ledger.history(listingID: "Z").isEmpty)
    }

    /// Rejects stream in the order they were stored, across pages, filtered by a reason substring ignoring case;
    /// flat records come back as their fields in order, nested ones as their JSON object.
    @Test func rejectsStreamInFeedOrderAcrossPages() throws {
        let (_, connection, ledger) = try Self.ledger()
        let run = try Self.insertRun(connection)
        let other = try Self.insertRun(connection)
        try Self.insertRejects(connection, run: other, count: 5)
        try Self.insertRejects(connection, run: run, count: Ledger.rejectPage * 2 + 345, priced: 1200)
        try Self.insertRejects(connection, run: other, count: 5)

        var ordinals: [Int64] = []
        let given = try ledger.rejects(run: run) { ordinals.append($0.ordinal) }
        #expect(given == Ledger.rejectPage * 2 + 345)
        #expect(ordinals == (0..<Int64(given)).map { $0 })

        var priced: [StoredReject] = []
        let pricedCount = try ledger.rejects(run: run, reasonContaining: "NOT A PRICE") { priced.append($0) }
        #expect(pricedCount == 1200 && priced.count == 1200)
        #expect(priced.first?.reasons == ["list_price: not a price (\"call agent\")"])
        #expect(priced.first?.raw == .fields([RawField("mls_number", "L0"), RawField("list_price", "x")]))
        #expect(priced.first?.position == SourcePosition(file: "feed.xml", line: 1, column: 3))
        #expect(priced.first?.key == "L0" && priced.first?.entity == "listing")
        #expect(try ledger.rejects(run: run, reasonContaining: "no such reason") { _ in } == 0)
        #expect(try ledger.rejects(run: 999) { _ in } == 0)

        try connection.execute("""
            INSERT INTO rejects (run_id, source, entity, key, file, line, column_number, ordinal, reasons, raw)
            VALUES ($1, 'crea', 'listing', NULL, 'ddf.xml', 4, 5, 0, ARRAY['listing_id: required field is missing'],
                    '{"ListPrice": "TBD", "Agents": [{"Name": "Ann"}]}')
            """, [String(other + 1)])
        var nested: [StoredReject] = []
        try ledger.rejects(run: other + 1) { nested.append($0) }
        #expect(nested.map(\.raw) == [.object("{\"Agents\": [{\"Name\": \"Ann\"}], \"ListPrice\": \"TBD\"}")])
        #expect(nested.first?.key == nil)
    }

    @Test func lastSuccessIsTheNewestSucceededOrUnchangedRunOfThePipelineAndSource() throws {
        let (_, connection, ledger) = try Self.ledger()
        #expect(try ledger.lastSuccess(pipeline: "nightly", source: "sdmls") == nil)
        try Self.insertRun(connection, status: "succeeded", daysAgo: 3)
        let unchanged = try Self.insertRun(connection, status: "unchanged", daysAgo: 2)
        try Self.insertRun(connection, status: "failed", daysAgo: 1)
        try Self.insertRun(connection, source: "crmls", status: "succeeded", daysAgo: 0)
        let expected = try connection.execute("SELECT extract(epoch FROM finished_at) FROM ingest_runs WHERE id = $1",
                                              [String(unchanged)]).rows[0][0].flatMap(Double.init)
        let found = try ledger.lastSuccess(pipeline: "nightly", source: "sdmls")
        #expect(found?.timeIntervalSince1970 == expected)
    }
}
