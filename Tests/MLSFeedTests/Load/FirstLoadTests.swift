import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// A first load copies listings straight into `listings` (repeats staged) and, into an empty table, rebuilds the
/// secondary indexes instead of maintaining them row by row.
@Suite(.ownThread) struct FirstLoadTests {
    typealias F = LoadFixtures
    static let indexes = "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'listings' ORDER BY 1"

    @Test func indexesComeBackIdenticalAfterAFirstLoad() throws {
        let db = try TestDatabase.migrated()
        try Migrations.apply(try Connection(db))
        let migrated = try F.query(db, Self.indexes)
        #expect(migrated.count > 5)
        let session = try LoadSession(conninfo: db, options: F.options())
        try session.write((0..<50).map { F.listing("L\($0)", ordinal: $0) })
        #expect(session.firstLoad?.droppedKey?.name == "listings_pkey")
        #expect(session.firstLoad?.droppedIndexes.count == migrated.count - 1)
        _ = try session.commit(read: 50, rejected: 0, inputs: [], timings: [:], warnings: [])
        #expect(try F.query(db, Self.indexes) == migrated)
        #expect(try F.query(db, "SELECT count(*) FROM listings") == [["50"]])
    }

    @Test func abandonedFirstLoadLeavesTheSchemaAndNoRows() throws {
        let db = try TestDatabase.migrated()
        try Migrations.apply(try Connection(db))
        let migrated = try F.query(db, Self.indexes)
        // A run that fails after staging rolls back everything it did in its transaction.
        let session = try LoadSession(conninfo: db, options: F.options(.incremental))
        try session.write([F.listing("A")])
        session.fail("stopped on purpose")
        #expect(try F.query(db, Self.indexes) == migrated)
        #expect(try F.query(db, "SELECT count(*) FROM listings") == [["0"]])
    }

    static func copy(_ id: String, _ price: String, _ modified: String?, _ ordinal: Int) -> NormalizedRecord {
        var record = F.listing(id, price: price, ordinal: ordinal)
        record.values["modification_timestamp"] = modified.map(Value.timestamp)
        return record
    }

    /// Copies of one MLS number in feed order, and the price that must win: newest timestamp, a timestamp
    /// before none, then the later record.
    @Test(arguments: [
        ([("1", "2026-11-01T00:00:00Z"), ("2", "2026-11-02T00:00:00Z")], "2.00"),
        ([("1", "2026-11-02T00:00:00Z"), ("2", "2026-11-01T00:00:00Z")], "1.00"),
        ([("1", "2026-11-01T00:00:00Z"), ("2", "2026-11-01T00:00:00Z")], "2.00"),
        ([("1", nil), ("2", "2026-11-01T00:00:00Z")], "2.00"),
        ([("1", "2026-11-01T00:00:00Z"), ("2", nil)], "1.00"),
        ([("1", nil), ("2", nil)], "2.00"),
        ([("1", "2026-11-01T00:00:00Z"), ("2", "2026-11-03T00:00:00Z"), ("3", "2026-11-02T00:00:00Z"),
          ("4", nil)], "2.00"),
    ] as [([(String, String?)], String)])
    func repeatsInAFirstLoadResolveByTheDedupeRule(copies: [(String, String?)], winner: String) throws {
        let db = try TestDatabase.migrated()
        let records = copies.enumerated().map { Self.copy("A", $1.0, $1.1, $0) } + [F.listing("B", ordinal: 99)]
        let result = try F.load(db, records)
        #expect(result.inserted == 2)
        #expect(result.duplicates == copies.count - 1)
        #expect(result.updated == 0)
        #expect(try F.query(db, "SELECT list_price::text FROM listings WHERE listing_id = 'A'") == [[winner]])
        #expect(try F.query(db, "SELECT count(*) FROM listing_history") == [["0"]])
    }

    /// The repeats of a first load are merged into the copied table by key. Analyzed first: without statistics the
    /// planner took the table for a few hundred rows and read every listing of the source into a hash to merge the
    /// repeats (11 s of a 1M first load).
    @Test func aFirstLoadsRepeatsAreLookedUpByKeyNotReadWithTheWholeSource() throws {
        let db = try TestDatabase.migrated()
        let count = 20_000
        let copies = (0..<count).map { F.listing("L\($0)", ordinal: $0) }
        let repeats = (0..<1_000).map {
            F.listing("L\($0 * 20)", price: "600000", modified: "2026-11-02T10:00:00Z", ordinal: count + $0)
        }
        let result = try F.load(db, copies + repeats)
        #expect(result.inserted == count)
        #expect(result.duplicates == repeats.count)
        #expect(try F.query(db, "SELECT count(*) FROM listings WHERE list_price = 600000") == [["1000"]])
        // The run's table counters reach the server's statistics when its connections end: wait (up to 10 s) for
        // its inserts to show, then read how many rows index scans fetched (the merge's lookups, or every row).
        let counters = "SELECT n_tup_ins, idx_tup_fetch FROM pg_stat_user_tables WHERE relname = 'listings'"
        var stats = try F.query(db, counters)
        for _ in 0..<100 where Int(stats.first?[0] ?? "") != count {
            usleep(100_000)
            stats = try F.query(db, counters)
        }
        #expect(Int(stats.first?[0] ?? "") == count)
        let fetched = Int(stats.first?[1] ?? "") ?? -1
        #expect((0...2 * repeats.count).contains(fetched), "index scans fetched \(fetched) listings")
    }

    @Test func aSourceAddedBesideAnotherKeepsTheIndexesAndLoadsStraightIn() throws {
        let db = try TestDatabase.migrated()
        try F.load(db, [F.listing("A")])
        let indexes = try F.query(db, Self.indexes)
        var options = F.options()
        options.source = "other"
        let session = try LoadSession(conninfo: db, options: options)
        try session.write([F.listing("A"), F.listing("B"), F.listing("A", price: "7", ordinal: 3)])
        #expect(session.firstLoad?.copied == 2)
        #expect(session.firstLoad?.droppedIndexes.isEmpty == true)
        #expect(session.firstLoad?.droppedKey == nil)
        let result = try session.commit(read: 3, rejected: 0, inputs: [], timings: [:], warnings: [])
        #expect(result.inserted == 2)
        #expect(result.duplicates == 1)
        #expect(try F.query(db, "SELECT source, listing_id, list_price::text FROM listings ORDER BY 1, 2")
            == [["other", "A", "7.00"], ["other", "B", "500000.00"], ["sdmls", "A", "500000.00"]])
        #expect(try F.query(db, Self.indexes) == indexes)
    }

    /// A session of `source` into `db` whose statements wait at most 2 s for a lock.
    static func session(_ db: String, source: String) throws -> LoadSession {
        var options = F.options()
        options.source = source
        var connection = ConnectionOptions()
        connection.lockTimeout = 2
        return try LoadSession(conninfo: db, options: options, connection: connection)
    }

    /// Two first loads of two sources into an empty table at once (several jobs on a new database): the one that
    /// writes first sees the other source's run and keeps the indexes, so neither waits for the whole table (one
    /// took it, and the other's first read waited until its lock timeout; both taking it deadlocked), and both
    /// commit.
    @Test func firstLoadsOfTwoSourcesIntoAnEmptyTableAtOnceBothCommit() throws {
        let db = try TestDatabase.migrated()
        try Migrations.apply(try Connection(db))
        let migrated = try F.query(db, Self.indexes)
        let first = try Self.session(db, source: "one")
        let second = try Self.session(db, source: "two")
        try first.write([F.listing("A"), F.listing("B")])
        try second.write([F.listing("A"), F.listing("C")])
        #expect(first.firstLoad?.droppedIndexes.isEmpty == true)
        #expect(first.firstLoad?.droppedKey == nil)
        #expect(second.firstLoad?.droppedIndexes.isEmpty == true)
        #expect(try first.commit(read: 2, rejected: 0, inputs: [], timings: [:], warnings: []).inserted == 2)
        #expect(try second.commit(read: 2, rejected: 0, inputs: [], timings: [:], warnings: []).inserted == 2)
        #expect(try F.query(db, "SELECT source, listing_id FROM listings ORDER BY 1, 2")
            == [["one", "A"], ["one", "B"], ["two", "A"], ["two", "C"]])
        #expect(try F.query(db, Self.indexes) == migrated)
    }

    /// A first load into an empty table that another session is reading keeps the indexes instead of waiting for
    /// the table (a wait that deadlocks when that session waits for it too).
    @Test func aFirstLoadIntoATableInUseKeepsTheIndexes() throws {
        let db = try TestDatabase.migrated()
        try Migrations.apply(try Connection(db))
        let migrated = try F.query(db, Self.indexes)
        let reader = try Connection(db)
        try reader.execute("BEGIN")
        try reader.execute("SELECT count(*) FROM listings")
        let session = try Self.session(db, source: "one")
        try session.write([F.listing("A")])
        #expect(session.firstLoad?.droppedIndexes.isEmpty == true)
        #expect(try session.commit(read: 1, rejected: 0, inputs: [], timings: [:], warnings: []).inserted == 1)
        try reader.execute("COMMIT")
        #expect(try F.query(db, Self.indexes) == migrated)
        #expect(try F.query(db, "SELECT count(*) FROM listings") == [["1"]])
    }
}
