import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// Listings recognised by their raw fingerprint travel as keys only: the merge neither stages nor compares them.
@Suite(.ownThread) struct StoredListingsTests {
    typealias F = LoadFixtures

    @Test func storedListingsHoldTheRawFingerprintsOfOnMarketListingsWithTheirTimes() throws {
        let db = try TestDatabase.migrated()
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
        #expect(stored.lookup(55).map { $0.epochMicroseconds == nil } == true)
        #expect(stored.lookup(44) == nil)  // off market: staged and restored as usual if it comes back
        #expect(stored.lookup(12) == nil)
        session.fail("test over")
    }

    @Test func recognisedListingsAreSentAsKeysOnly() throws {
        let db = try TestDatabase.migrated()
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

    /// How a run knows its recognised copies: not against a stored set, against one without their places, or
    /// with each copy's place in it (as a pipeline run does).
    enum Recognition: CaseIterable { case unknown, unplaced, placed }

    /// Knowing the stored listings it recognised against, a full dump takes the number of on-market listings from
    /// them (fingerprinted or not) for the withdraw guard and for deciding whether anything can be gone; knowing
    /// the places its copies named too, it looks for the gone ones among the others only.
    @Test(arguments: Recognition.allCases)
    func fullDumpWithdrawsWhatItNeitherRecognisedNorStaged(recognition: Recognition) throws {
        let db = try TestDatabase.migrated()
        try F.load(db, [F.listing("A", rawHash: 1), F.listing("B", rawHash: 2), F.listing("C", rawHash: 3),
                        F.listing("D", rawHash: nil), F.listing("E", rawHash: 5), F.listing("F", rawHash: 6),
                        F.listing("G", rawHash: 7), F.listing("H", rawHash: 8)],
                   mode: .full)
        _ = try F.query(db, "UPDATE listings SET modification_timestamp = now() + interval '1 day' "
                            + "WHERE listing_id = 'G'")
        let session = try LoadSession(conninfo: db, options: F.options(.full))
        let stored = recognition == .unknown ? nil : try session.storedListings()
        if let stored {
            #expect(stored.onMarket == 8)
            session.recognize(against: BlockingFuture(stored))
        }
        let placed = recognition == .placed ? stored : nil
        // A, B and H recognised, E changed (staged), F rejected, G modified after the dump's as-of time; C
        // (fingerprinted) and D (none) are gone.
        try session.write([F.stored("A", rawHash: 1, in: placed), F.stored("B", rawHash: 2, in: placed),
                           F.stored("H", rawHash: 8, in: placed),
                           F.listing("E", price: "9", modified: "2026-11-02T10:00:00Z", rawHash: 50)])
        try session.write(rejects: [F.reject("F")])
        let result = try session.commit(read: 5, rejected: 1, inputs: [], timings: [:], warnings: [])
        #expect(session.unnamedSent == (recognition == .placed))
        #expect(session.seenIndexed == (recognition != .placed))
        #expect(result.withdrawn == 2)
        #expect(result.updated == 1)
        #expect(result.unchanged == 3)
        #expect(try F.query(db, "SELECT listing_id FROM listings WHERE off_market_at IS NOT NULL ORDER BY 1")
            == [["C"], ["D"]])
    }

    @Test func theWithdrawGuardCountsFromTheStoredListingsAndAnUnreadSetCountsNothing() throws {
        let db = try TestDatabase.migrated()
        try F.load(db, (0..<10).map { F.listing("L\($0)", rawHash: UInt64($0 + 1)) }, mode: .full)
        let session = try LoadSession(conninfo: db, options: F.options(.full))
        session.recognize(against: BlockingFuture(try session.storedListings()))
        try session.write([F.stored("L0", rawHash: 1), F.stored("L1", rawHash: 2)])
        #expect(throws: LoadError.self) {
            _ = try session.commit(read: 2, rejected: 0, inputs: [], timings: [:], warnings: [])
        }
        // A set that could not be read falls back to counting the source: the guard still holds.
        let again = try LoadSession(conninfo: db, options: F.options(.full))
        again.recognize(against: BlockingFuture(.unavailable))
        try again.write([F.listing("L0", rawHash: 1)])
        #expect(throws: LoadError.self) {
            _ = try again.commit(read: 1, rejected: 0, inputs: [], timings: [:], warnings: [])
        }
        #expect(try F.query(db, "SELECT count(*) FROM listings WHERE off_market_at IS NULL") == [["10"]])
    }

    /// A session that recognises against the stored set (as a pipeline run does, returned too), or one that does
    /// not know it.
    static func session(_ db: String, _ mode: LoadMode, knowsStored: Bool, spoolDirectory: String? = nil) throws
        -> (LoadSession, StoredListings?) {
        var options = F.options(mode)
        if let spoolDirectory { options.spoolDirectory = spoolDirectory }
        let session = try LoadSession(conninfo: db, options: options)
        guard knowsStored else { return (session, nil) }
        let stored = try session.storedListings()
        session.recognize(against: BlockingFuture(stored))
        return (session, stored)
    }

    @Test(arguments: [true, false])
    func recognisedCopyBesideAChangedCopyStillResolvesNewestThenLaterWins(knowsStored: Bool) throws {
        let db = try TestDatabase.migrated()
        let day1 = "2026-11-01T10:00:00Z", day2 = "2026-11-02T10:00:00Z", day0 = "2026-10-30T10:00:00Z"
        let keys = ["A", "B", "C", "D", "E"]
        try F.load(db, keys.enumerated().map { F.listing($1, price: "100", modified: day1, rawHash: UInt64($0 + 1)) })
        // Each of A-D comes twice: its stored (recognised) copy and a changed copy, far apart in the feed.
        let (session, stored) = try Self.session(db, .incremental, knowsStored: knowsStored)
        try session.write([
            F.stored("A", modified: day1, ordinal: 0, rawHash: 1, in: stored),  // A: the change is newer → it wins
            F.listing("A", price: "120", modified: day2, ordinal: 1),
            F.stored("B", modified: day1, ordinal: 2, rawHash: 2, in: stored),  // B: the change is older → stays
            F.listing("B", price: "90", modified: day0, ordinal: 3),
            F.listing("C", price: "80", modified: day1, ordinal: 4),  // C: same time, change earlier → stored
            F.stored("C", modified: day1, ordinal: 5, rawHash: 3, in: stored),
            F.stored("D", modified: day1, ordinal: 6, rawHash: 4, in: stored),  // D: same time, change later → it wins
            F.listing("D", price: "70", modified: day1, ordinal: 7),
            F.stored("E", modified: day1, ordinal: 8, rawHash: 5, in: stored),
        ])
        let result = try session.commit(read: 9, rejected: 0, inputs: [], timings: [:], warnings: [])
        #expect(result.updated == 2)
        #expect(result.stale == 0)
        #expect(result.unchanged == 3)
        #expect(result.duplicates == 4)
        // Known distinct, the recognised keys are resolved against the staged ones without an index.
        #expect(session.seenIndexed == !knowsStored)
        #expect(try F.query(db, "SELECT listing_id, list_price::text FROM listings ORDER BY 1")
            == [["A", "120.00"], ["B", "100.00"], ["C", "100.00"], ["D", "70.00"], ["E", "100.00"]])
    }

    /// One unchanged listing twice in the dump, farther apart than the dedupe window: both copies are recognised,
    /// sent as keys, and counted once.
    @Test(arguments: [true, false])
    func aRecognisedListingSentTwiceCountsOnce(knowsStored: Bool) throws {
        let db = try TestDatabase.migrated()
        try F.load(db, [F.listing("A", rawHash: 1), F.listing("B", rawHash: 2), F.listing("C", rawHash: 3)],
                   mode: .full)
        let (session, stored) = try Self.session(db, .full, knowsStored: knowsStored)
        try session.write([F.stored("A", ordinal: 0, rawHash: 1, in: stored),
                           F.stored("B", ordinal: 1, rawHash: 2, in: stored)])
        try session.write([F.stored("A", ordinal: 2, rawHash: 1, in: stored)])
        let result = try session.commit(read: 3, rejected: 0, inputs: [], timings: [:], warnings: [])
        #expect(result.recognized == 3)
        #expect(result.unchanged == 2)
        #expect(result.duplicates == 1)
        #expect(result.withdrawn == 1)
        #expect(try F.query(db, "SELECT listing_id FROM listings WHERE off_market_at IS NOT NULL") == [["C"]])
    }

    /// The usual nightly run: distinct recognised keys, changed copies of other listings, nothing gone. The merge
    /// counts the keys as sent and never indexes or reads them back; a dump that lacks a listing still withdraws it,
    /// checking the keys the search beside the merge found (L4 among them, changed, so staged and kept), or, when the
    /// search finds more than its limit, looking for them itself.
    @Test(arguments: [0, 1], [WithdrawalSearch.defaultLimit, 0])
    func distinctRecognisedKeysCountAsSent(gone: Int, searchLimit: Int) throws {
        let db = try TestDatabase.migrated()
        let keys = (0..<6).map { "L\($0)" }
        try F.load(db, keys.enumerated().map { F.listing($1, rawHash: UInt64($0 + 1)) }, mode: .full)
        let (session, stored) = try Self.session(db, .full, knowsStored: true)
        session.goneSearchLimit = searchLimit
        // L0-L3 unchanged, L4 changed, N1 new; L5 unchanged, or gone.
        try session.write((0..<4).map { F.stored(keys[$0], ordinal: $0, rawHash: UInt64($0 + 1), in: stored) }
                          + [F.listing("L4", price: "9", modified: "2026-11-02T10:00:00Z", ordinal: 4, rawHash: 50),
                             F.listing("N1", ordinal: 6, rawHash: 60)])
        if gone == 0 {
            try session.write([F.stored("L5", ordinal: 5, rawHash: 6, in: stored)])
        }
        let result = try session.commit(read: 7 - gone, rejected: 0, inputs: [], timings: [:], warnings: [])
        #expect(result.recognized == 5 - gone)
        #expect(result.unchanged == 5 - gone)
        #expect(result.updated == 1)
        #expect(result.inserted == 1)
        #expect(result.duplicates == 0)
        #expect(result.withdrawn == gone)
        // Never indexed: the withdrawal looks among the stored listings no copy named, when one can be gone.
        #expect(!session.seenIndexed)
        #expect(session.unnamedSent == (gone > 0))
        #expect(session.goneSearched == (gone > 0 && searchLimit > 0))
        #expect(try F.query(db, "SELECT listing_id FROM listings WHERE off_market_at IS NOT NULL")
            == (gone > 0 ? [["L5"]] : []))
    }

    /// Why a listing the search beside the merge found (no recognised copy named it) still stays on the market.
    enum KeptAfterSearch: CaseIterable { case modifiedAfterTheDump, rejected, staged }

    /// The keys the search found are checked again in the run's transaction, as the withdrawal always checks: C,
    /// which the dump lacks as an unchanged copy, stays when it was modified after the dump's as-of time, rejected,
    /// or staged (a changed copy); D, gone, is withdrawn.
    @Test(arguments: KeptAfterSearch.allCases)
    func aFoundListingIsCheckedAgainBeforeItIsWithdrawn(kept: KeptAfterSearch) throws {
        let db = try TestDatabase.migrated()
        let day1 = "2026-11-01T10:00:00Z", day2 = "2026-11-02T10:00:00Z", day3 = "2026-11-03T10:00:00Z"
        try F.load(db, ["A", "B", "C", "D"].enumerated().map { F.listing($1, modified: day1, rawHash: UInt64($0 + 1)) },
                   mode: .full)
        if kept == .modifiedAfterTheDump {
            _ = try F.query(db, "UPDATE listings SET modification_timestamp = $1 WHERE listing_id = 'C'", [day3])
        }
        let (session, stored) = try Self.session(db, .full, knowsStored: true)
        var records = [F.stored("A", modified: day1, ordinal: 0, rawHash: 1, in: stored),
                       F.stored("B", modified: day1, ordinal: 1, rawHash: 2, in: stored)]
        if kept == .staged { records.append(F.listing("C", price: "7", modified: day2, ordinal: 2, rawHash: 30)) }
        try session.write(records)
        if kept == .rejected { try session.write(rejects: [F.reject("C", ordinal: 2)]) }
        var totals = RunTotals(read: 3, rejected: kept == .rejected ? 1 : 0)
        totals.headerAsOf = day2
        let result = try session.commit(totals)
        #expect(session.goneSearched)
        #expect(result.withdrawn == 1)
        #expect(try F.query(db, "SELECT listing_id FROM listings WHERE off_market_at IS NOT NULL") == [["D"]])
    }

    /// Two stored listings with one fingerprint: a copy names only the first one's place, so the places no copy
    /// named cannot tell the gone; the withdrawal then looks for them by key, and withdraws only the gone one.
    @Test(arguments: [0, 1])
    func storedListingsSharingAFingerprintAreWithdrawnByKey(carried: Int) throws {
        let db = try TestDatabase.migrated()
        try F.load(db, [F.listing("A", rawHash: 1), F.listing("B", rawHash: 2), F.listing("C", rawHash: 3),
                        F.listing("D", rawHash: 4)], mode: .full)
        _ = try F.query(db, "UPDATE listings SET raw_hash = 1 WHERE listing_id = 'B'")
        let (session, stored) = try Self.session(db, .full, knowsStored: true)
        #expect(stored?.repeatsHash == true)
        // The dump carries A (unchanged), C and D, and B only when `carried` (changed, so staged).
        var records = [F.stored("A", ordinal: 0, rawHash: 1, in: stored), F.stored("C", ordinal: 1, rawHash: 3,
                                                                                 in: stored),
                       F.stored("D", ordinal: 2, rawHash: 4, in: stored)]
        if carried == 1 { records.append(F.listing("B", price: "5", modified: "2026-11-02T10:00:00Z", ordinal: 3)) }
        try session.write(records)
        let result = try session.commit(read: 3 + carried, rejected: 0, inputs: [], timings: [:], warnings: [])
        #expect(!session.unnamedSent)
        #expect(!session.goneSearched)
        #expect(result.withdrawn == 1 - carried)
        #expect(try F.query(db, "SELECT listing_id FROM listings WHERE off_market_at IS NOT NULL")
            == (carried == 1 ? [] : [["B"]]))
    }

    @Test(arguments: [
        ([UInt64(1), 2, 3, .max], false),
        ([UInt64(3), 1, 2, 3], true),
        ([UInt64.max, 0, .max], true),
        ([], false),
    ])
    func aRepeatedFingerprintIsNoticed(hashes: [UInt64], repeats: Bool) {
        let stored = StoredListings(hashes.map { ($0, nil) })
        #expect(stored.repeatsHash == repeats)
        #expect((0..<stored.count).map { stored.hash(at: $0) } == hashes.sorted())
    }

    @Test(arguments: [(0, 8), (511, 8), (512, 9), (1023, 9), (1024, 10), (100_000, 16), (1_000_000, 19),
                      (Int(UInt32.max), 24)])
    func bucketsHoldOneOrTwoFingerprints(count: Int, bits: Int) {
        #expect(StoredListings.prefixBits(for: count) == bits)
    }

    /// Every fingerprint of a set is found at its place in sorted order, whatever the set's size (and so its prefix
    /// length); fingerprints next to them are not.
    @Test(arguments: [1, 300, 5_000, 70_000])
    func everyStoredFingerprintIsFoundAtItsSortedPlace(count: Int) {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &* UInt64(count)
        let hashes = (0..<count).map { _ in
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let stored = StoredListings(hashes.map { ($0, nil) })
        let sorted = hashes.sorted()
        #expect(sorted.indices.allSatisfy { stored.index(of: sorted[$0]) == $0 })
        let neighbours = Set(sorted.flatMap { [$0 &+ 1, $0 &- 1] }).subtracting(sorted)
        #expect(neighbours.allSatisfy { stored.index(of: $0) == nil })
    }

    @Test func eachStoredFingerprintHasItsOwnPlace() {
        let stored = StoredListings([(UInt64.max, nil), (7, 1), (0, 2), (1 << 63, nil)])
        let places = [UInt64.max, 7, 0, 1 << 63].map { stored.index(of: $0) }
        #expect(Set(places.compactMap { $0 }) == [0, 1, 2, 3])
        #expect(stored.index(of: 8) == nil)
        #expect(StoredListings().index(of: 7) == nil)
    }

    @Test func sameContentFromADifferentlySpelledRecordKeepsTheNewFingerprintWithoutAnUpdate() throws {
        let db = try TestDatabase.migrated()
        try F.load(db, [F.listing("A", rawHash: 1), F.listing("B", rawHash: 2)])
        let result = try F.load(db, [F.listing("A", rawHash: 7), F.listing("B", rawHash: nil)])
        #expect(result.updated == 0)
        #expect(result.unchanged == 2)
        #expect(try F.query(db, "SELECT listing_id, raw_hash::text FROM listings ORDER BY 1")
            == [["A", "7"], ["B", nil]])
    }
}
