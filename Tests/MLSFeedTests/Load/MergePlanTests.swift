import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// A run's two reads of every on-market listing, at 1M listings: index-only scans of `listings_on_market_idx`
/// (migration 12), never a sequential scan of `listings`.
///
/// On the search suite's 1M fixture (`SearchPlanTests.million`: indexes built after the insert, `VACUUM ANALYZE`),
/// no planner setting changed. Each test runs the load's own statement in a transaction it rolls back, and reads
/// the table's and the index's counters for that transaction, so what is asserted is what the statement did.
@Suite(.ownThread, .serialized, .enabled(if: SlowTests.enabled, "1M listings: MLSFEED_SLOW_TESTS=1"))
struct MergePlanTests {
    /// Sequential scans of `listings` and scans of the on-market index in the current transaction.
    private func scans(_ connection: Connection) throws -> (table: Int, index: Int) {
        let row = try connection.execute("""
            SELECT (SELECT seq_scan FROM pg_stat_xact_user_tables WHERE relid = 'listings'::regclass),
                   pg_stat_get_xact_numscans('listings_on_market_idx'::regclass)
            """).rows[0]
        return (Int(row[0] ?? "") ?? -1, Int(row[1] ?? "") ?? -1)
    }

    /// Runs a withdrawal `statement` as a full run of source `sdmls` would (everything up to 2100 is as of the dump):
    /// what it withdrew, its plan, and the sequential scans of `listings` and scans of the on-market index it made.
    private func withdraw(_ connection: Connection, _ statement: String, found: [String]? = nil) throws
        -> (withdrawn: Int?, plan: String, tableScans: Int, indexScans: Int) {
        var parameters: [String?] = ["sdmls", "0", "2100-01-01T00:00:00Z"]
        if let found { parameters.append(TextArray.literal(found)) }
        let plan = try connection.execute("EXPLAIN " + statement, parameters).rows
            .compactMap { $0[0] }.joined(separator: "\n")
        let before = try scans(connection)
        let withdrawn = try connection.execute(statement, parameters).rows[0][0].flatMap { Int($0) }
        let after = try scans(connection)
        return (withdrawn, plan, after.table - before.table, after.index - before.index)
    }

    private func count(_ connection: Connection, _ sql: String) throws -> Int {
        Int(try connection.execute(sql).rows[0][0] ?? "") ?? -1
    }

    @Test func theStoredFingerprintsAreReadFromTheOnMarketIndex() throws {
        let connection = try Connection(SearchPlanTests.million.get())
        try connection.execute("BEGIN")
        defer { _ = try? connection.execute("ROLLBACK") }
        let stored = try LoadSession.storedListings(connection, source: "sdmls", inTransaction: true)
        let (table, index) = try scans(connection)
        let onMarket = try count(connection, """
            SELECT count(*) FROM listings WHERE source = 'sdmls' AND off_market_at IS NULL
            """)
        #expect(onMarket > 900_000)
        #expect(stored.onMarket == onMarket)
        #expect(table == 0)
        #expect(index == 1)
    }

    /// How a full run withdraws: by key, anti-joining the recognised keys in `seen_listings` (indexed first), by
    /// the fingerprints of the stored listings no recognised copy named (`unmatched_listings`), or by the keys a
    /// `WithdrawalSearch` found for those fingerprints beside the merge.
    enum Withdrawal: CaseIterable { case byKey, byUnnamedPlaces, byFoundKeys }

    /// Either way the withdrawal reads the on-market listings once, from the on-market index, and the run's rejected
    /// keys once, as a hashed subplan. By key, the dump carried every on-market listing but those whose number ends
    /// in 001 (one in a thousand), and rejected those ending in 5001, 5,000 keys it never carried, and a record
    /// without a key (which must not hide the rest). By unnamed places, the fixture's listings have no fingerprint,
    /// so 25,000 unnamed fingerprints match none: the plan is what is asserted there (`StoredListingsTests` checks
    /// what it withdraws). By found keys, the search found every listing whose number ends in 001, on the market or
    /// not: the withdrawal reads those by key, and the on-market index not at all.
    @Test(arguments: Withdrawal.allCases)
    func theWithdrawalReadsTheOnMarketIndexOnce(withdrawal: Withdrawal) throws {
        let connection = try Connection(SearchPlanTests.million.get())
        try connection.execute("BEGIN")
        defer { _ = try? connection.execute("ROLLBACK") }
        try connection.execute("CREATE TEMP TABLE incoming_listings (listing_id text) ON COMMIT DROP")
        try connection.execute("ANALYZE incoming_listings")
        try connection.execute("""
            INSERT INTO rejects (run_id, source, entity, key, file, line, column_number, ordinal, reasons, raw)
            SELECT 0, 'sdmls', 'listing', key, 'feed.xml', 1, 1, 0, '{rule}', '{}'
            FROM (SELECT listing_id AS key FROM listings WHERE source = 'sdmls' AND listing_id LIKE '%5001'
                  UNION ALL SELECT NULL
                  UNION ALL SELECT 'never-carried-' || n FROM generate_series(1, 5000) AS n) AS rejected
            """)
        var missing = 0
        var found: [String]?
        switch withdrawal {
        case .byKey, .byFoundKeys:
            try connection.execute("""
                CREATE TEMP TABLE seen_listings ON COMMIT DROP AS
                SELECT listing_id, 0 AS ordinal FROM listings WHERE source = 'sdmls' AND listing_id NOT LIKE '%001'
                """)
            try connection.execute("CREATE INDEX ON seen_listings (listing_id)")
            try connection.execute("ANALYZE seen_listings")
            missing = try count(connection, """
                SELECT count(*) FROM listings
                WHERE source = 'sdmls' AND off_market_at IS NULL AND listing_id LIKE '%001'
                  AND listing_id NOT LIKE '%5001'
                """)
            #expect(missing > 800)
            if withdrawal == .byFoundKeys {
                found = try connection.execute("SELECT listing_id FROM listings WHERE listing_id LIKE '%001'").rows
                    .compactMap { $0[0] }
            }
        case .byUnnamedPlaces:
            try connection.execute("""
                CREATE TEMP TABLE unmatched_listings ON COMMIT DROP AS
                SELECT i * 7919 AS raw_hash FROM generate_series(1, 25000) AS i
                """)
            try connection.execute("ANALYZE unmatched_listings")
        }
        let statement = switch withdrawal {
        case .byKey: MergeStatements.withdraw
        case .byUnnamedPlaces: MergeStatements.withdrawUnnamed(withoutFingerprint: false)
        case .byFoundKeys: MergeStatements.withdrawFound(withoutFingerprint: false)
        }
        let run = try withdraw(connection, statement, found: found)
        #expect(run.withdrawn == missing)
        #expect(withdrawal != .byUnnamedPlaces || run.plan.contains("Hash Cond: (o.raw_hash = u.raw_hash)"),
                "\(run.plan)")
        #expect(withdrawal != .byFoundKeys || run.plan.contains("Index Cond: (listing_id = ANY ('{"), "\(run.plan)")
        #expect(run.plan.contains("NOT (hashed SubPlan"), "\(run.plan)")
        #expect(run.tableScans == 0, "\(run.plan)")
        #expect(run.indexScans == (withdrawal == .byFoundKeys ? 0 : 1), "\(run.plan)")
    }

    /// A changed copy staged for a listing the dump also carried unchanged is resolved by reading that listing's
    /// stored row, and only those: at 1M, 28,000 staged keys of which 3,000 were recognised too read at most 3,000
    /// rows of `listings` (as a join, the planner read all 28,000, or the whole table by a merge join). As the load
    /// does, `seen_listings` is neither indexed nor analyzed. The fixture's listings have no modification
    /// timestamp, so a staged copy without one loses to the later recognised copy (the ordinal), and one with a
    /// timestamp wins.
    @Test func theOverlapReadsOnlyTheStoredRowsOfKeysBothStagedAndRecognised() throws {
        let connection = try Connection(SearchPlanTests.million.get())
        try connection.execute("BEGIN")
        defer { _ = try? connection.execute("ROLLBACK") }
        try connection.execute("""
            CREATE TEMP TABLE seen_listings ON COMMIT DROP AS
            SELECT listing_id, 2000000 AS ordinal FROM listings WHERE source = 'sdmls' AND listing_id NOT LIKE '%7'
            """)
        try connection.execute("""
            CREATE TEMP TABLE incoming_listings ON COMMIT DROP AS
            SELECT listing_id, ordinal,
                   CASE WHEN ordinal % 2 = 0 THEN timestamptz '2026-01-01 00:00:00+00' END AS modification_timestamp
            FROM (SELECT listing_id, row_number() OVER (ORDER BY listing_id) AS ordinal FROM listings
                  WHERE source = 'sdmls' AND listing_id LIKE '%7' LIMIT 25000) AS unrecognised
            UNION ALL
            SELECT listing_id, ordinal,
                   CASE WHEN ordinal % 2 = 0 THEN timestamptz '2026-01-01 00:00:00+00' END
            FROM (SELECT listing_id, 25000 + row_number() OVER (ORDER BY listing_id) AS ordinal FROM listings
                  WHERE source = 'sdmls' AND listing_id LIKE '%3' LIMIT 3000) AS recognised
            """)
        try connection.execute("CREATE INDEX ON incoming_listings (listing_id)")
        try connection.execute("ANALYZE incoming_listings")
        let probes = """
            SELECT coalesce(idx_tup_fetch, 0) + coalesce(seq_tup_read, 0) FROM pg_stat_xact_user_tables
            WHERE relid = 'listings'::regclass
            """
        let before = try count(connection, probes)
        let overlap = try connection.execute(MergeStatements.resolveRecognisedOverlap, ["sdmls"])
        let after = try count(connection, probes)
        #expect(overlap.value(0, "overlap") == "3000")
        #expect(try count(connection, "SELECT count(*) FROM incoming_listings") == 28000 - 1500)
        #expect(try count(connection, "SELECT count(*) FROM incoming_listings WHERE modification_timestamp IS NULL")
                == 12500)
        #expect(after - before <= 3000, "\(after - before) rows of listings read")
    }
}
