import Foundation
import MLSFeed
import Postgres
import PostgresTestSupport
import Testing

/// A database the release before the SQL files migrated (its 15 migrations applied from Swift strings, whose exact
/// texts are the files `0001` to `0015`) moves forward: only the newer migrations run, once each, its rows and
/// `schema_migrations` stay as they were, and it ends with the schema a new install has.
@Suite(.ownThread) struct MigrationForwardTests {
    /// The migrations the release before recorded in `schema_migrations`.
    static let release = MigrationChecksumTests.shipped.filter { $0.version <= 15 }.map { ($0.version, $0.name) }

    /// A database as that release left it: its `schema_migrations` table, its 15 migrations each in a transaction,
    /// and a run's rows.
    private func releaseDatabase() throws -> Connection {
        let connection = try Connection(TestDatabase.fresh())
        // The table exactly as the release made it (`Migrations.apply` still makes it so).
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version integer PRIMARY KEY,
                name text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """)
        for (version, name) in Self.release {
            let sql = try #require(Migrations.all.first { $0.version == version }).sql
            try connection.transaction {
                try connection.executeScript(sql)
                try connection.execute("""
                    INSERT INTO schema_migrations (version, name, applied_at)
                    VALUES ($1::integer, $2, '2026-01-01T00:00:00Z'::timestamptz + $1::integer * interval '1 minute')
                    """, [String(version), name])
            }
        }
        try connection.executeScript("""
            INSERT INTO ingest_runs (pipeline, source, mode, status, read, inserted)
                VALUES ('sample', 'sdmls', 'full', 'succeeded', 2, 1);
            INSERT INTO listings (source, listing_id, standard_status, list_price, city, latitude, longitude,
                                  extra, content_hash, first_seen_run, last_changed_run, raw_hash)
                VALUES ('sdmls', '260000001', 'Active', 525000, 'San Diego', 32.72, -117.16, '{"Pool": "Y"}',
                        'c0ffee', 1, 1, 42);
            INSERT INTO agents (source, agent_mls_id, first_name, last_name, content_hash, first_seen_run,
                                last_changed_run)
                VALUES ('sdmls', 'A1', 'Ana', 'Tanaka', 'beef', 1, 1);
            INSERT INTO rejects (run_id, source, entity, key, file, line, column_number, ordinal, reasons, raw)
                VALUES (1, 'sdmls', 'listing', '260000002', 'feed.xml', 12, 3, 2, '{"ListPrice: not a number"}',
                        '{"ListPrice": "abc"}');
            INSERT INTO listing_history (source, listing_id, run_id, change, old_price, new_price)
                VALUES ('sdmls', '260000001', 1, 'price', 550000, 525000);
            """)
        return connection
    }

    /// Every row of the tables the run wrote, as text; a listing's NULL columns left out (the newer migrations add
    /// nullable columns to `listings`, NULL in the rows before them).
    private func rows(_ connection: Connection) throws -> [[String?]] {
        try connection.execute("""
            SELECT (SELECT jsonb_agg(to_jsonb(r) - 'started_at') FROM ingest_runs r)::text,
                   (SELECT jsonb_agg(jsonb_strip_nulls(to_jsonb(l))) FROM listings l)::text,
                   (SELECT jsonb_agg(a) FROM agents a)::text,
                   (SELECT jsonb_agg(j) FROM rejects j)::text,
                   (SELECT jsonb_agg(to_jsonb(h) - 'recorded_at') FROM listing_history h)::text
            """).rows
    }

    @Test func theReleasesDatabaseAppliesOnlyTheNewMigrationsAndKeepsItsRows() throws {
        let connection = try releaseDatabase()
        let before = try rows(connection)
        let recorded = try connection.execute("SELECT version, name, applied_at FROM schema_migrations ORDER BY 1")
            .rows

        let newer = Migrations.all.map(\.version).filter { $0 > 15 }
        #expect(try Migrations.apply(connection) == newer)
        #expect(try Migrations.apply(connection) == [])

        #expect(try rows(connection) == before)
        let versions = try connection.execute("SELECT version, name, applied_at FROM schema_migrations ORDER BY 1")
            .rows
        #expect(Array(versions.prefix(15)) == recorded)
        #expect(versions.map { $0[0] } == Migrations.all.map { String($0.version) })
    }

    @Test func aNewInstallRecordsTheReleasesNamesAndEndsWithTheSameSchema() throws {
        let upgraded = try releaseDatabase()
        try Migrations.apply(upgraded)
        let installed = try Connection(TestDatabase.fresh())
        try Migrations.apply(installed)

        let names = try installed.execute("SELECT version, name FROM schema_migrations WHERE version <= 15 ORDER BY 1")
            .rows
        #expect(names == Self.release.map { [String($0.0), $0.1] })
        let differences = try SchemaSnapshot.of(upgraded).differences(from: SchemaSnapshot.of(installed))
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }
}
