import MLSFeed
import Postgres
import PostgresTestSupport

extension TestDatabase {
    /// The conninfo of a new database with every migration applied: a copy of one template database that the test
    /// process migrates once (`fresh(template:prepare:)`), instead of each test running every migration.
    static func migrated() throws -> String {
        try fresh(template: "migrated") { conninfo in
            try Migrations.apply(Connection(conninfo))
        }
    }
}
