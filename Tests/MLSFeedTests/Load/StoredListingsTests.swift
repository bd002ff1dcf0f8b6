import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// Listings recognised by their raw fingerprint travel as keys only: the merge neither stages nor compares them.
@Suite struct StoredListingsTests {
    typealias F = LoadFixtures

    @Test func storedListingsHoldTheRawFingerprintsOfOnMarketListingsWithTheirTimes() throws {
        let db = try TestDatabase.fresh()
        try F.load(db, [F.listing("A", modified: "2026-11-01T10:00:00Z", rawHash: 11),
                        F.listing("B", modified: "1969-12-31T23:59:59Z", rawHash: UInt64.max),
                        F.listing("C", rawHash: nil), F.listing("D", rawHash: 44),
                        F.listing("E", modified: "2014-07-29T17:46:37.263457Z", rawHash: 66)])
        _ = try F.query(db, "UPDATE listings SET off_market_at = now() WHERE listing_id = 'D'")
        _ = try F.query(db, "UPDATE listings SET modification_timestamp = NULL, raw_hash = 55 WHERE listing_id = 'C'")
        let session = try LoadSession(conninfo: db, options: F.options())
        let stored = try session.storedListings()
        #expect(stored.count == 4)
        #expect(stored.onMarket == 4)
        #expect(stored.lookup(11)?.modificationTimestamp == "2026-11-01T10:00:00Z")
        #expect(stored.lookup(UInt64.max)?.modificationTimestamp == "1969-12-31T23:59:59Z")
        #expect(stored.lookup(66)?.modificationTimestamp == "2014-07-29T17:46:37.263457Z")
        #expect(stored.lookup(55) == StoredCopy(epochMicroseconds: nil))
        #expect(stored.lookup(44) == nil)  // off market: staged and restored as usual if it comes back
        #expect(stored.lookup(12) == nil)
        session.fail("test over")
    }

    @Test func recognisedListingsAreSentAsKeysOnly() throws {
        let db = try TestDatabase.fresh()
        try F.load(db, [F.listing("A", rawHash: 1), F.listing("B", rawHash: 2), F.listing("C", price: "1")],
                   mode: .full)
        let before = try F.query(db, "SELECT listing_id, xmin::text FROM listings WHERE listing_id <> 'C' ORDER BY 1")
        let session = try LoadSession(conninfo: db, options: F.options(.full))
        try session.write([F.stored("A", rawHash: 1), F.stored("B", rawHash: 2),
                           F.listing("C", price: "2", modified: "2026-11-02T10:00:00Z", rawHash: 3)])
        #expect(session.skippedListings == 2)
        #expect(session.stagedListings == 1)
        let result = try session.commit(read: 3, rejected: 0, inputs: [], timings: [:], warnings: [])
        #expect(result.unchanged == 2)
        #expect(result.recognized == 2)
        #expect(result.updated == 1)
        #expect(result.withdrawn == 0)
        #expect(try F.query(db, "SELECT list_price::text, raw_hash::text FROM listings WHERE listing_id = 'C'")
            == [["2.00", "3"]])
        #expect(try F.query(db, "SELECT listing_id, xmin::text FROM listings WHERE listing_id <> 'C' ORDER BY 1")
            == before)
    }

    /// Knowing the stored listings it recognised against, a full dump takes the number of on-market listings from
    /// them (fingerprinted or not) for the withdraw guard and for deciding whether anything can be gone.
    @Test(arguments: [true, false])
    func fullDumpWithdrawsWhatItNeitherRecognisedNorStaged(knowsStored: Bool) throws {
        let db = try TestDatabase.fresh()
        try F.load(db, [F.listing("A", rawHash: 1), F.listing("B", rawHash: 2), F.listing("C", rawHash: 3),
                        F.listing("D", rawHash: nil), F.listing("E", rawHash: 5), F.listing("F", rawHash: 6)],
                   mode: .full)
        let session = try LoadSession(conninfo: db, options: F.options(.full))
        if knowsStored {
            let stored = try session.storedListings()
            #expect(stored.onMarket == 6)
            session.recognize(against: Pending(stored))
        }
        // A and B recognised, E changed (staged), F rejected; C (fingerprinted) and D (none) are gone.
        try session.write([F.stored("A", rawHash: 1), F.stored("B", rawHash: 2),
                           F.listing("E", price: "9", modified: "2026-11-02T10:00:00Z", rawHash: 50)])
        try session.write(rejects: [F.reject("F")])
        let result = try session.commit(read: 4, rejected: 1, inputs: [], timings: [:], warnings: [])
        #expect(result.withdrawn == 2)
        #expect(result.updated == 1)
        #expect(result.unchanged == 2)
        #expect(try F.query(db, "SELECT listing_id FROM listings WHERE off_market_at IS NOT NULL ORDER BY 1")
            == [["C"], ["D"]])
    }

    @Test func theWithdrawGuardCountsFromTheStoredListingsAndAnUnreadSetCountsNothing() throws {
        let db = try TestDatabase.fresh()
        try F.load(db, (0..<10).map { F.listing("L\($0)", rawHash: UInt64($0 + 1)) }, mode: .full)
        let session = try LoadSession(conninfo: db, options: F.options(.full))
        session.recognize(against: Pending(try session.storedListings()))
        try session.write([F.stored("L0", rawHash: 1), F.stored("L1", rawHash: 2)])
        #expect(throws: LoadError.self) {
            _ = try session.commit(read: 2, rejected: 0, inputs: [], timings: [:], warnings: [])
        }
        // A set that could not be read falls back to counting the source: the guard still holds.
        let again = try LoadSession(conninfo: db, options: F.options(.full))
        again.recognize(against: Pending(.unavailable))
        try again.write([F.listing("L0", rawHash: 1)])
        #expect(throws: LoadError.self) {
            _ = try again.commit(read: 1, rejected: 0, inputs: [], timings: [:], warnings: [])
        }
        #expect(try F.query(db, "SELECT count(*) FROM listings WHERE off_market_at IS NULL") == [["10"]])
    }

    @Test func recognisedCopyBesideAChangedCopyStillResolvesNewestThenLaterWins() throws {
        let db = try TestDatabase.fresh()
        let day1 = "2026-11-01T10:00:00Z", day2 = "2026-11-02T10:00:00Z", day0 = "2026-10-30T10:00:00Z"
        try F.load(db, ["A", "B", "C", "D"].map { F.listing($0, price: "100", modified: day1) })
        // Each listing comes twice: its stored (recognised) copy and a changed copy, far apart in the feed.
        let result = try F.load(db, [
            F.stored("A", modified: day1, ordinal: 0),  // A: the change is newer → it wins
            F.listing("A", price: "120", modified: day2, ordinal: 1),
            F.stored("B", modified: day1, ordinal: 2),  // B: the change is older → stored stays
            F.listing("B", price: "90", modified: day0, ordinal: 3),
            F.listing("C", price: "80", modified: day1, ordinal: 4),  // C: same time, change earlier → stored
            F.stored("C", modified: day1, ordinal: 5),
            F.stored("D", modified: day1, ordinal: 6),  // D: same time, change later → it wins
            F.listing("D", price: "70", modified: day1, ordinal: 7),
        ])
        #expect(result.updated == 2)
        #expect(result.stale == 0)
        #expect(result.unchanged == 2)
        #expect(result.duplicates == 4)
        #expect(try F.query(db, "SELECT listing_id, list_price::text FROM listings ORDER BY 1")
            == [["A", "120.00"], ["B", "100.00"], ["C", "100.00"], ["D", "70.00"]])
    }

    @Test func sameContentFromADifferentlySpelledRecordKeepsTheNewFingerprintWithoutAnUpdate() throws {
        let db = try TestDatabase.fresh()
        try F.load(db, [F.listing("A", rawHash: 1), F.listing("B", rawHash: 2)])
        let result = try F.load(db, [F.listing("A", rawHash: 7), F.listing("B", rawHash: nil)])
        #expect(result.updated == 0)
        #expect(result.unchanged == 2)
        #expect(try F.query(db, "SELECT listing_id, raw_hash::text FROM listings ORDER BY 1")
            == [["A", "7"], ["B", nil]])
    }

    @Test(arguments: [
        ("12", Int64(12)), ("-9223372036854775808", Int64.min), ("9223372036854775807", Int64.max),
    ])
    func asciiIntegersParse(text: String, value: Int64) {
        #expect(Int64(ascii: Array(text.utf8)) == value)
    }

    @Test(arguments: ["", "-", "1a", "9223372036854775808", " 1", "\\N"])
    func nonIntegersDoNotParse(text: String) {
        #expect(Int64(ascii: Array(text.utf8)) == nil)
    }
}
