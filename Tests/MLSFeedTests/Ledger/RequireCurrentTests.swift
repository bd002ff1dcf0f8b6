import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// `Migrations.requireCurrent`: read-only commands refuse an older schema and change nothing.
@Suite(.ownThread) struct RequireCurrentTests {
    @Test func anOlderSchemaIsAnErrorNamingMigrate() throws {
        let connection = try Connection(TestDatabase.fresh())
        let latest = Migrations.latestVersion
        let previous = Migrations.all.dropLast().last!.version
        #expect(throws: LoadError("the database schema is at version 0, this mlsfeed needs \(latest); "
                                  + "run `mlsfeed db migrate`")) {
            try Migrations.requireCurrent(connection)
        }
        #expect(try connection.execute("SELECT to_regclass('schema_migrations') IS NULL").rows == [["t"]])
        try Migrations.apply(connection)
        try Migrations.requireCurrent(connection)
        try connection.execute("DELETE FROM schema_migrations WHERE version = $1", [String(latest)])
        #expect(throws: LoadError("the database schema is at version \(previous), this mlsfeed needs \(latest); "
                                  + "run `mlsfeed db migrate`")) {
            try Migrations.requireCurrent(connection)
        }
    }
}
