import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// The withdrawal's search beside the merge: what it finds, when it hands the work back, and that it stops.
@Suite(.ownThread) struct WithdrawalSearchTests {
    typealias F = LoadFixtures

    /// A source with listings A-E (fingerprints 1-5), D off the market, and another source's listing with
    /// fingerprint 2.
    private func database() throws -> String {
        let db = try TestDatabase.migrated()
        try F.load(db, ["A", "B", "C", "D", "E"].enumerated().map { F.listing($1, rawHash: UInt64($0 + 1)) })
        _ = try F.query(db, "UPDATE listings SET off_market_at = now() WHERE listing_id = 'D'")
        _ = try F.query(db, """
            INSERT INTO listings (source, listing_id, content_hash, raw_hash, first_seen_run, last_changed_run)
            VALUES ('other', 'X', 'x', 2, 0, 0)
            """)
        return db
    }

    private func search(_ db: String, _ unmatched: [UInt64],
                        limit: Int = WithdrawalSearch.defaultLimit) -> WithdrawalSearch {
        WithdrawalSearch(source: F.source, unmatched: unmatched, limit: limit) { try Connection(db) }
    }

    /// The source's on-market listings with those fingerprints: not an off-market one, not another source's.
    @Test(arguments: [
        ([UInt64(2), 4, 5], ["B", "E"]),
        ([UInt64(1), 2, 3, 4, 5], ["A", "B", "C", "E"]),
        ([UInt64(4), 99], []),
    ])
    func findsTheSourcesOnMarketListingsWithThoseFingerprints(unmatched: [UInt64], keys: [String]) throws {
        let db = try database()
        #expect(search(db, unmatched).keys()?.sorted() == keys)
    }

    /// No fingerprint left unnamed: nothing to find, and no connection opened for it.
    @Test func nothingUnmatchedFindsNothingWithoutConnecting() {
        let search = WithdrawalSearch(source: F.source, unmatched: []) {
            Issue.record("connected with nothing to look for")
            throw CancellationError()
        }
        #expect(search.keys() == [])
    }

    /// More keys than its limit, or no connection: nil, and the withdrawal looks for them itself.
    @Test func pastItsLimitOrWithoutAConnectionItHandsTheWorkBack() throws {
        let db = try database()
        #expect(search(db, [1, 2, 3], limit: 3).keys()?.count == 3)
        #expect(search(db, [1, 2, 3], limit: 2).keys() == nil)
        let refused = WithdrawalSearch(source: F.source, unmatched: [1]) { throw CancellationError() }
        #expect(refused.keys() == nil)
    }

    /// A search blocked in its scan (another session holds `listings` exclusively) is cancelled by `abandon`, which
    /// returns once it stopped; the run does not wait for the lock.
    @Test func abandoningABlockedSearchCancelsIt() throws {
        let db = try database()
        let holder = try Connection(db)
        try holder.execute("BEGIN")
        try holder.execute("LOCK TABLE listings IN ACCESS EXCLUSIVE MODE")
        defer { _ = try? holder.execute("ROLLBACK") }
        let search = search(db, [1])
        let watcher = try Connection(db)
        let deadline = Date().addingTimeInterval(60)
        while try watcher.execute("""
            SELECT count(*) FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'SELECT o.listing_id%'
            """).rows[0][0] == "0" {
            #expect(Date() < deadline, "the search never waited on the lock")
            guard Date() < deadline else { return }
            usleep(20_000)
        }
        let started = Date()
        search.abandon()
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(search.keys() == nil)
        #expect(try watcher.execute("""
            SELECT count(*) FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'
            """).rows[0][0] == "0")
    }
}
