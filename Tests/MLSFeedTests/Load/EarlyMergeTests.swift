import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// The merges made while the parse goes on (`load.merge_while_parsing`) write what the end's merge alone would:
/// each scenario runs in batches with a merge after every batch that staged a listing, and again with merging only
/// at the end, on two databases holding the same listings; the listings, their history and the run's counts must
/// come out the same.
@Suite(.ownThread) struct EarlyMergeTests {
    typealias F = LoadFixtures

    static let day0 = "2026-10-30T10:00:00Z", day1 = "2026-11-01T10:00:00Z", day2 = "2026-11-02T10:00:00Z"
    static let day3 = "2026-11-03T10:00:00Z"

    /// A night's dump, batch by batch, against stored listings A-F (price 100, day 1, fingerprints 1-6).
    struct Scenario: CustomTestStringConvertible, Sendable {
        let name: String
        let mode: LoadMode
        /// Batches of records; `stored` makes a recognised copy of the stored listing with that fingerprint.
        let batches: [[Copy]]
        /// The early merges must have written this many listings and handed this many back to the end.
        let mergedWhileParsing: Int
        let mergedAgainAtEnd: Int

        var testDescription: String { name }
    }

    enum Copy: Sendable {
        case changed(String, price: String, modified: String, ordinal: Int, status: String = "Active")
        case stored(String, fingerprint: UInt64, ordinal: Int)
    }

    static let scenarios: [Scenario] = [
        Scenario(name: "changed and new listings, one batch each", mode: .full, batches: [
            [.stored("A", fingerprint: 1, ordinal: 0), .changed("B", price: "120", modified: day2, ordinal: 1)],
            [.changed("C", price: "100", modified: day2, ordinal: 2, status: "Pending")],
            [.changed("N", price: "300", modified: day2, ordinal: 3), .stored("D", fingerprint: 4, ordinal: 4)],
            [.stored("E", fingerprint: 5, ordinal: 5)],
        ], mergedWhileParsing: 3, mergedAgainAtEnd: 0),
        Scenario(name: "a later recognised copy loses to the merged change", mode: .full, batches: [
            [.changed("A", price: "120", modified: day2, ordinal: 0)],
            [.stored("A", fingerprint: 1, ordinal: 1), .stored("B", fingerprint: 2, ordinal: 2)],
            [.stored("C", fingerprint: 3, ordinal: 3), .stored("D", fingerprint: 4, ordinal: 4),
             .stored("E", fingerprint: 5, ordinal: 5), .stored("F", fingerprint: 6, ordinal: 6)],
        ], mergedWhileParsing: 1, mergedAgainAtEnd: 0),
        Scenario(name: "a change as old as the stored row waits for the end", mode: .incremental, batches: [
            [.changed("A", price: "80", modified: day1, ordinal: 0)],
            [.stored("A", fingerprint: 1, ordinal: 1)],
            [.changed("B", price: "70", modified: day1, ordinal: 2)],
            [.changed("C", price: "60", modified: day0, ordinal: 3)],
        ], mergedWhileParsing: 0, mergedAgainAtEnd: 0),
        Scenario(name: "a merged change staged again, newer", mode: .full, batches: [
            [.changed("A", price: "120", modified: day2, ordinal: 0), .stored("B", fingerprint: 2, ordinal: 1)],
            [.changed("A", price: "130", modified: day3, ordinal: 2, status: "Pending")],
            [.stored("C", fingerprint: 3, ordinal: 3), .stored("D", fingerprint: 4, ordinal: 4),
             .stored("E", fingerprint: 5, ordinal: 5), .stored("F", fingerprint: 6, ordinal: 6)],
        ], mergedWhileParsing: 0, mergedAgainAtEnd: 1),
        Scenario(name: "a merged change staged again, older", mode: .full, batches: [
            [.changed("A", price: "120", modified: day3, ordinal: 0)],
            [.changed("A", price: "110", modified: day2, ordinal: 1), .stored("B", fingerprint: 2, ordinal: 2)],
            [.stored("A", fingerprint: 1, ordinal: 3), .stored("C", fingerprint: 3, ordinal: 4),
             .stored("D", fingerprint: 4, ordinal: 5)],
        ], mergedWhileParsing: 0, mergedAgainAtEnd: 1),
        Scenario(name: "new listings and half the stored ones, at the withdraw guard", mode: .full, batches: [
            [.changed("N", price: "300", modified: day2, ordinal: 0)],
            [.changed("M", price: "500", modified: day2, ordinal: 1)],
            [.stored("A", fingerprint: 1, ordinal: 2)],
        ], mergedWhileParsing: 2, mergedAgainAtEnd: 0),
        Scenario(name: "a new listing staged again", mode: .incremental, batches: [
            [.changed("N", price: "300", modified: day2, ordinal: 0)],
            [.changed("N", price: "290", modified: day3, ordinal: 1)],
            [.changed("M", price: "500", modified: day2, ordinal: 2)],
        ], mergedWhileParsing: 1, mergedAgainAtEnd: 1),
    ]

    /// Loads the stored listings A-F, then runs `scenario` with the merges during the parse after every batch
    /// (`early`) or only at the end; returns the result and what the database holds. `recognition`: how the run
    /// knows its recognised copies (see `StoredListingsTests.Recognition`).
    static func run(_ scenario: Scenario, early: Bool, recognition: StoredListingsTests.Recognition) throws
        -> (LoadResult, [[String?]]) {
        let db = try TestDatabase.migrated()
        try F.load(db, ["A", "B", "C", "D", "E", "F"].enumerated().map {
            F.listing($1, price: "100", modified: day1, rawHash: UInt64($0 + 1))
        }, mode: .full)
        let session = try LoadSession(conninfo: db, options: F.options(scenario.mode, earlyMergeRows: early ? 1 : 0))
        let stored = recognition == .unknown ? nil : try session.storedListings()
        if let stored { session.recognize(against: BlockingFuture(stored)) }
        let placed = recognition == .placed ? stored : nil
        var read = 0
        for batch in scenario.batches {
            try session.write(batch.map { copy in
                switch copy {
                case .changed(let key, let price, let modified, let ordinal, let status):
                    F.listing(key, price: price, status: status, modified: modified, ordinal: ordinal,
                              rawHash: UInt64(100 + ordinal))
                case .stored(let key, let fingerprint, let ordinal):
                    F.stored(key, modified: day1, ordinal: ordinal, rawHash: fingerprint, in: placed)
                }
            })
            read += batch.count
        }
        let result = try session.commit(read: read, rejected: 0, inputs: [], timings: [:], warnings: [])
        let rows = try F.query(db, """
            SELECT l::text FROM (SELECT listing_id, standard_status, list_price, modification_timestamp, content_hash,
                                        raw_hash, first_seen_run, last_changed_run, off_market_at IS NOT NULL
                                 FROM listings) l ORDER BY 1
            """) + F.query(db, """
            SELECT h::text FROM (SELECT listing_id, run_id, modification_timestamp, change, old_price, new_price,
                                        old_status, new_status FROM listing_history) h ORDER BY 1
            """)
        return (result, rows)
    }

    @Test(arguments: scenarios, StoredListingsTests.Recognition.allCases)
    func mergingDuringTheParseWritesWhatTheEndAloneWrites(scenario: Scenario,
                                                          recognition: StoredListingsTests.Recognition) throws {
        let (early, earlyRows) = try Self.run(scenario, early: true, recognition: recognition)
        let (end, endRows) = try Self.run(scenario, early: false, recognition: recognition)
        #expect(early.mergedWhileParsing == scenario.mergedWhileParsing)
        #expect(early.mergedAgainAtEnd == scenario.mergedAgainAtEnd)
        #expect(end.mergedWhileParsing == 0)
        #expect(earlyRows == endRows)
        for count in [\LoadResult.inserted, \.updated, \.unchanged, \.stale, \.withdrawn, \.duplicates, \.recognized] {
            #expect(early[keyPath: count] == end[keyPath: count])
        }
    }
}
