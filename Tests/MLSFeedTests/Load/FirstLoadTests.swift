import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// A first load into an empty table rebuilds the secondary indexes instead of maintaining them row by row.
@Suite struct FirstLoadTests {
    typealias F = LoadFixtures
    static let indexes = "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'listings' ORDER BY 1"

    @Test func indexesComeBackIdenticalAfterAFirstLoad() throws {
        let db = try TestDatabase.fresh()
        try Migrations.apply(try Connection(db))
        let migrated = try F.query(db, Self.indexes)
        #expect(migrated.count > 5)
        try F.load(db, (0..<50).map { F.listing("L\($0)", ordinal: $0) })
        #expect(try F.query(db, Self.indexes) == migrated)
        #expect(try F.query(db, "SELECT count(*) FROM listings") == [["50"]])
    }

    @Test func abandonedFirstLoadLeavesTheSchemaAndNoRows() throws {
        let db = try TestDatabase.fresh()
        try Migrations.apply(try Connection(db))
        let migrated = try F.query(db, Self.indexes)
        // A run that fails after staging rolls back everything it did in its transaction.
        let session = try LoadSession(conninfo: db, options: F.options(.incremental))
        try session.write([F.listing("A")])
        session.fail("stopped on purpose")
        #expect(try F.query(db, Self.indexes) == migrated)
        #expect(try F.query(db, "SELECT count(*) FROM listings") == [["0"]])
    }
}
