import Foundation
import MLSFeed
import Postgres
import PostgresTestSupport
import Testing

/// `Migrations.requireCurrent`: read-only commands check the schema and never migrate.
@Suite struct LoadRequireCurrentTests {
    @Test func aMissingSchemaIsVersionZero() throws {
        let connection = try Connection(TestDatabase.fresh())
        #expect(throws: Migrations.Outdated(current: 0, needed: Migrations.latestVersion)) {
            try Migrations.requireCurrent(connection)
        }
        #expect(try connection.execute("SELECT to_regclass('schema_migrations') IS NULL").rows == [["t"]])
    }

    @Test func anOlderSchemaNamesBothVersions() throws {
        let connection = try Connection(TestDatabase.fresh())
        try Migrations.apply(connection)
        try Migrations.requireCurrent(connection)
        try connection.execute("DELETE FROM schema_migrations WHERE version = $1", [String(Migrations.latestVersion)])
        do {
            try Migrations.requireCurrent(connection)
            Issue.record("an older schema passed")
        } catch let error as Migrations.Outdated {
            #expect(error.description == "error: the database schema is at version \(Migrations.latestVersion - 1), "
                + "this mlsfeed needs \(Migrations.latestVersion); run `mlsfeed db migrate`")
        }
    }
}
