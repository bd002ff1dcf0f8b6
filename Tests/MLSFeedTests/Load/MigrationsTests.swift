import Foundation
@testable import MLSFeed
import Postgres
import PostgresTestSupport
import Testing

@Suite(.ownThread) struct LoadMigrationsTests {
    @Test func applyTwiceIsANoOp() throws {
        let connection = try Connection(TestDatabase.fresh())
        let all = Migrations.all.map(\.version)
        #expect(try Migrations.apply(connection) == all)
        #expect(try Migrations.apply(connection) == [])
        let versions = try connection.execute("SELECT version FROM schema_migrations ORDER BY 1").rows
        #expect(versions == all.map { [String($0)] })
    }

    @Test func concurrentApplyAppliesEachVersionOnce() throws {
        let db = try TestDatabase.fresh()
        let outcomes = Outcomes()
        DispatchQueue.concurrentPerform(iterations: 3) { _ in
            outcomes.add(Result { try Migrations.apply(Connection(db)) })
        }
        let applied = try outcomes.all.map { try $0.get() }
        #expect(applied.flatMap { $0 }.sorted() == Migrations.all.map(\.version))
    }

    /// `extra` is compressed with LZ4 (this machine's PostgreSQL has it): a listing whose `extra` is over the
    /// 2 KB threshold is stored compressed with it, whether the first load copied it into `listings` (A) or a later
    /// run's merge took it from the staging table (B new, C changed).
    @Test func extraIsCompressedWithLZ4() throws {
        let db = try TestDatabase.migrated()
        let extra = (0..<120).map { RawField("Feature\($0)", "value \($0) of a long remarks field") }
        try LoadFixtures.load(db, [LoadFixtures.listing("A", extra: extra), LoadFixtures.listing("C")])
        try LoadFixtures.load(db, [LoadFixtures.listing("A", extra: extra), LoadFixtures.listing("B", extra: extra),
                                   LoadFixtures.listing("C", extra: extra)])
        let connection = try Connection(db)
        let methods = try connection.execute("""
            SELECT attrelid::regclass::text, attcompression FROM pg_attribute
            WHERE attrelid IN ('listings'::regclass, 'agents'::regclass) AND attname = 'extra' ORDER BY 1
            """).rows
        #expect(methods == [["agents", "l"], ["listings", "l"]])
        let stored = try connection.execute(
            "SELECT listing_id, pg_column_compression(extra) FROM listings ORDER BY 1").rows
        #expect(stored == [["A", "lz4"], ["B", "lz4"], ["C", "lz4"]])
    }

    /// Every key and index of the tables of offices, open houses and media starts with `source`: the schema stays
    /// distributable by source (one source's rows together, as Citus distributes a table).
    @Test func theWholeListingsKeysAndIndexesStartWithSource() throws {
        let connection = try Connection(TestDatabase.migrated())
        let leading = try connection.execute("""
            SELECT c.relname, i.indexrelid::regclass::text, a.attname
            FROM pg_index i
            JOIN pg_class c ON c.oid = i.indrelid
            JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
            WHERE c.relname IN ('offices', 'open_houses', 'media') AND c.relnamespace = 'public'::regnamespace
            ORDER BY 1, 2
            """).rows
        #expect(leading == [
            ["media", "media_listing_idx", "source"], ["media", "media_pkey", "source"],
            ["offices", "offices_pkey", "source"],
            ["open_houses", "open_houses_listing_idx", "source"], ["open_houses", "open_houses_pkey", "source"],
        ])
    }

    @Test func radiusSearchUsesTheLocationIndex() throws {
        let db = try TestDatabase.migrated()
        try LoadFixtures.load(db, [LoadFixtures.listing("A")])
        let connection = try Connection(db)
        try connection.execute("SET enable_seqscan = off")
        // Within 5 miles of downtown San Diego: a bounding box on the index, then the exact distance.
        let radius = """
            SELECT listing_id FROM listings
            WHERE latitude IS NOT NULL AND longitude IS NOT NULL
              AND point(longitude, latitude) <@ box(point(-117.25, 32.65), point(-117.07, 32.79))
              AND (point(longitude, latitude) <@> point(-117.16, 32.72)) <= 5
            """
        let plan = try connection.execute("EXPLAIN " + radius).rows.compactMap { $0[0] }.joined(separator: "\n")
        #expect(plan.contains("listings_location_idx"))
        let found = try connection.execute(radius).rows
        #expect(found == [["A"]])
    }
}

private final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<[Int], any Error>] = []

    func add(_ result: Result<[Int], any Error>) { lock.withLock { results.append(result) } }

    var all: [Result<[Int], any Error>] { lock.withLock { results } }
}
