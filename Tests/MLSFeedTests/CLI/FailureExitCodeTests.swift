import Foundation
import Postgres
import PostgresTestSupport
import Testing

/// Failures that tell the operator what to fix: the database refusing the configured role exits 2 naming the role
/// and what it lacks.
@Suite struct FailureExitCodeTests {
    static let input = CLI.packageRoot.appendingPathComponent("Tests/MLSFeedTests/Fixtures/fetch/listings.xml").path

    /// `mlsfeed run pipelines/sample.yaml` on the small fixture with `arguments`.
    static func run(_ arguments: [String]) throws -> CLI.Result {
        try CLI.run(["run", "pipelines/sample.yaml", "--input", input, "--quiet", "--no-progress"] + arguments)
    }

    /// A fresh database's name.
    static func freshDatabase() throws -> (conninfo: String, name: String) {
        let conninfo = try TestDatabase.fresh()
        return (conninfo, try Connection(conninfo).execute("SELECT current_database()").rows[0][0]!)
    }

    /// `connection to server on socket "DIR/.s.PGSQL.PORT" failed: ` for `role`'s server.
    static func refusal(_ role: DatabaseRole) -> String {
        "connection to server on socket \"\(role.host)/.s.PGSQL.\(role.port)\" failed: "
    }

    @Test func aWrongPasswordExitsTwoNamingTheRole() throws {
        let role = try DatabaseRole.create(password: "right-pass")
        let database = try Self.freshDatabase()
        let summary = FileManager.default.temporaryDirectory.appendingPathComponent("summary-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: summary) }
        let result = try Self.run(["--database", role.url(database: database.name, password: "wr0ng-pass"),
                                   "--summary-json", summary.path])
        #expect(result.status == 2)
        #expect(result.stderr == "error: database: \(Self.refusal(role))FATAL:  password authentication failed for "
            + "user \"\(role.name)\"\nhint: the role \"\(role.name)\" could not log in: check its password (in "
            + "--database, MLSFEED_DATABASE_URL, PGPASSWORD or ~/.pgpass)\n")
        let written = try String(contentsOf: summary, encoding: .utf8)
        #expect(written.contains("\"failure\":\"configuration\""), "\(written)")
        #expect(!written.contains("wr0ng-pass"))
    }

    @Test func aRoleWithoutConnectExitsTwoNamingThePrivilege() throws {
        let role = try DatabaseRole.create(password: "right-pass")
        let database = try Self.freshDatabase()
        try Connection(try TestDatabase.server()).execute("REVOKE CONNECT ON DATABASE \(database.name) FROM PUBLIC")
        let result = try Self.run(["--database", role.url(database: database.name)])
        #expect(result.status == 2)
        #expect(result.stderr == "error: database: \(Self.refusal(role))FATAL:  permission denied for database "
            + "\"\(database.name)\"\nDETAIL:  User does not have CONNECT privilege.\nhint: the role \"\(role.name)\" "
            + "lacks CONNECT on database \(database.name): grant it, or run mlsfeed as the role that owns its "
            + "tables\n")
    }

    @Test func aReadOnlyRoleExitsTwoNamingTheTableAndThePrivilege() throws {
        let database = try Self.freshDatabase()
        #expect(try Self.run(["--database", database.conninfo]).status == 0)
        let role = try DatabaseRole.create(password: "ro-pass")
        try Connection(database.conninfo).executeScript("""
            GRANT USAGE ON SCHEMA public TO \(role.name);
            GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(role.name);
            """)
        let result = try Self.run(["--database", role.url(database: database.name), "--force"])
        #expect(result.status == 2)
        #expect(result.stderr == "error: database: permission denied for table ingest_runs\nhint: the role "
            + "\"\(role.name)\" lacks UPDATE on table ingest_runs: grant it, or run mlsfeed as the role that owns "
            + "its tables\n")
    }
}
