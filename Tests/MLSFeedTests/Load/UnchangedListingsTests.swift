import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// Unchanged listings travel as keys only: the merge neither stages nor compares their rows.
@Suite struct UnchangedListingsTests {
    typealias F = LoadFixtures

    @Test func unchangedListingsAreSentAsKeysOnly() throws {
        let db = try TestDatabase.fresh()
        let batch = [F.listing("A"), F.listing("B"), F.listing("C", price: "1")]
        try F.load(db, batch, mode: .full)
        let session = try LoadSession(conninfo: db, options: F.options(.full))
        try session.write([F.listing("A"), F.listing("B"),
                           F.listing("C", price: "2", modified: "2026-11-02T10:00:00Z")])
        #expect(session.skippedListings == 2)
        #expect(session.stagedListings == 1)
        let result = try session.commit(read: 3, rejected: 0, inputs: [], timings: [:], warnings: [])
        #expect(result.unchanged == 2)
        #expect(result.updated == 1)
        #expect(result.withdrawn == 0)
        #expect(try F.query(db, "SELECT list_price::text FROM listings WHERE listing_id = 'C'") == [["2.00"]])
    }

    @Test func unchangedCopyBesideAChangedCopyStillResolvesNewestThenLaterWins() throws {
        let db = try TestDatabase.fresh()
        let day1 = "2026-11-01T10:00:00Z", day2 = "2026-11-02T10:00:00Z", day0 = "2026-10-30T10:00:00Z"
        try F.load(db, ["A", "B", "C", "D"].map { F.listing($0, price: "100", modified: day1) })
        // Each listing comes twice: its stored (unchanged) copy and a changed copy, far apart in the feed.
        let result = try F.load(db, [
            F.listing("A", price: "100", modified: day1, ordinal: 0),  // A: the change is newer → it wins
            F.listing("A", price: "120", modified: day2, ordinal: 1),
            F.listing("B", price: "100", modified: day1, ordinal: 2),  // B: the change is older → stored stays
            F.listing("B", price: "90", modified: day0, ordinal: 3),
            F.listing("C", price: "80", modified: day1, ordinal: 4),   // C: same time, change earlier → stored
            F.listing("C", price: "100", modified: day1, ordinal: 5),
            F.listing("D", price: "100", modified: day1, ordinal: 6),  // D: same time, change later → it wins
            F.listing("D", price: "70", modified: day1, ordinal: 7),
        ])
        #expect(result.updated == 2)
        #expect(result.stale == 0)
        #expect(result.unchanged == 2)
        #expect(result.duplicates == 4)
        #expect(try F.query(db, "SELECT listing_id, list_price::text FROM listings ORDER BY 1")
            == [["A", "120.00"], ["B", "100.00"], ["C", "100.00"], ["D", "70.00"]])
    }

    @Test(arguments: [("230012345", "abc"), ("", ""), ("SD-0042", "0123456789abcdef0123456789abcdef")])
    func fingerprintsAreStableAndSeparateKeyFromHash(key: String, hash: String) {
        #expect(UnchangedListings.fingerprint(key: key, hash: hash)
            == UnchangedListings.fingerprint(key: key, hash: hash))
        #expect(UnchangedListings.fingerprint(key: key + "a", hash: hash)
            != UnchangedListings.fingerprint(key: key, hash: "a" + hash))
    }
}
