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
@Suite(.serialized) struct MergePlanTests {
    /// Sequential scans of `listings` and scans of the on-market index in the current transaction.
    private func scans(_ connection: Connection) throws -> (table: Int, index: Int) {
        let row = try connection.execute("""
            SELECT (SELECT seq_scan FROM pg_stat_xact_user_tables WHERE relid = 'listings'::regclass),
                   pg_stat_get_xact_numscans('listings_on_market_idx'::regclass)
            """).rows[0]
        return (Int(row[0] ?? "") ?? -1, Int(row[1] ?? "") ?? -1)
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

    @Test func theWithdrawalLooksForMissingListingsInTheOnMarketIndex() throws {
        let connection = try Connection(SearchPlanTests.million.get())
        try connection.execute("BEGIN")
        defer { _ = try? connection.execute("ROLLBACK") }
        // The dump carried every on-market listing but those whose number ends in 001: one in a thousand.
        try connection.execute("CREATE TEMP TABLE incoming_listings (listing_id text) ON COMMIT DROP")
        try connection.execute("""
            CREATE TEMP TABLE seen_listings ON COMMIT DROP AS
            SELECT listing_id, 0 AS ordinal FROM listings WHERE source = 'sdmls' AND listing_id NOT LIKE '%001'
            """)
        try connection.execute("CREATE INDEX ON seen_listings (listing_id)")
        try connection.execute("ANALYZE seen_listings")
        try connection.execute("ANALYZE incoming_listings")
        let missing = try count(connection, """
            SELECT count(*) FROM listings
            WHERE source = 'sdmls' AND off_market_at IS NULL AND listing_id LIKE '%001'
            """)
        let parameters: [String?] = ["sdmls", "0", "2100-01-01T00:00:00Z"]
        let plan = try connection.execute("EXPLAIN " + MergeStatements.withdraw, parameters).rows
            .compactMap { $0[0] }.joined(separator: "\n")
        let before = try scans(connection)
        let withdrawn = try connection.execute(MergeStatements.withdraw, parameters).rows[0][0].flatMap { Int($0) }
        let after = try scans(connection)
        #expect(missing > 900)
        #expect(withdrawn == missing)
        #expect(after.table == before.table, "\(plan)")
        #expect(after.index == before.index + 1, "\(plan)")
    }

    /// Knowing the fingerprints of the stored listings no recognised copy named, the withdrawal joins those to the
    /// same index scan, with no `seen_listings` at all. (The fixture's listings have no fingerprint, so the hashes
    /// match none: the plan is what is asserted here; `StoredListingsTests` checks what it withdraws.)
    @Test func theWithdrawalOfUnnamedListingsJoinsTheirFingerprintsToTheOnMarketIndex() throws {
        let connection = try Connection(SearchPlanTests.million.get())
        try connection.execute("BEGIN")
        defer { _ = try? connection.execute("ROLLBACK") }
        try connection.execute("CREATE TEMP TABLE incoming_listings (listing_id text) ON COMMIT DROP")
        try connection.execute("""
            CREATE TEMP TABLE unmatched_listings ON COMMIT DROP AS
            SELECT i * 7919 AS raw_hash FROM generate_series(1, 25000) AS i
            """)
        try connection.execute("ANALYZE unmatched_listings")
        try connection.execute("ANALYZE incoming_listings")
        let statement = MergeStatements.withdrawUnnamed(withoutFingerprint: false)
        let parameters: [String?] = ["sdmls", "0", "2100-01-01T00:00:00Z"]
        let plan = try connection.execute("EXPLAIN " + statement, parameters).rows
            .compactMap { $0[0] }.joined(separator: "\n")
        let before = try scans(connection)
        let withdrawn = try connection.execute(statement, parameters).rows[0][0].flatMap { Int($0) }
        let after = try scans(connection)
        #expect(withdrawn == 0)
        #expect(plan.contains("Hash Cond: (o.raw_hash = u.raw_hash)"), "\(plan)")
        #expect(after.table == before.table, "\(plan)")
        #expect(after.index == before.index + 1, "\(plan)")
    }
}
