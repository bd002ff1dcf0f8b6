import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeedFixtures

/// Failures that tell the operator what to fix: the database refusing the configured role exits 2 naming the role
/// and what it lacks; a full disk (the output, the server's tablespace) exits 4 naming the path or tablespace.
@Suite(.ownThread) struct FailureExitCodeTests {
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

    @Test func aFullOutputDeviceExitsFourNamingIt() throws {
        let result = try Self.run(["--dry-run", "--output", "/dev/full"])
        #expect(result.status == 4)
        #expect(result.stderr.contains("\nerror: /dev/full: cannot write the output: No space left on device\n"),
                "\(result.stderr)")
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to mount a small tmpfs"))
    func aFullDiskRemovesThePartialOutput() throws {
        let disk = try SmallDisk(kilobytes: 64)
        let feed = disk.path + "-feed.xml"
        defer { try? FileManager.default.removeItem(atPath: feed) }
        _ = try FixtureGenerator.generate(FixtureOptions(listings: 400, output: feed, seed: 3))
        let output = disk.path + "/listings.jsonl"
        let result = try CLI.run(["run", "pipelines/sample.yaml", "--input", feed, "--dry-run", "--output", output,
                                  "--quiet", "--no-progress"])
        #expect(result.status == 4)
        #expect(result.stderr.contains("\nerror: \(output): cannot write the output: No space left on device; the "
            + "partial file was removed\n"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        withExtendedLifetime(disk) {}
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to mount a small tmpfs"))
    func aFullTablespaceExitsFourNamingIt() throws {
        let database = try Self.freshDatabase()
        let admin = try Connection(try TestDatabase.server())
        let dataDirectory = try admin.execute("SELECT current_setting('data_directory')").rows[0][0]!
        let owner = try #require(try FileManager.default.attributesOfItem(atPath: dataDirectory)[.ownerAccountID]
            as? NSNumber)
        let disk = try SmallDisk(kilobytes: 1024, owner: uid_t(owner.uint32Value))
        let tablespace = "small_\(database.name)"
        try admin.execute("CREATE TABLESPACE \(tablespace) LOCATION '\(disk.path)'")
        defer {
            _ = try? admin.execute("DROP DATABASE \(database.name) WITH (FORCE)")
            _ = try? admin.execute("DROP TABLESPACE \(tablespace)")
            withExtendedLifetime(disk) {}
        }
        let oid = try admin.execute("SELECT oid FROM pg_tablespace WHERE spcname = $1", [tablespace]).rows[0][0]!
        try admin.execute("ALTER DATABASE \(database.name) SET default_tablespace = \(tablespace)")
        let feed = disk.path + "-feed.xml"
        defer { try? FileManager.default.removeItem(atPath: feed) }
        _ = try FixtureGenerator.generate(FixtureOptions(listings: 2000, output: feed, seed: 4))
        let result = try CLI.run(["run", "pipelines/sample.yaml", "--input", feed, "--database", database.conninfo,
                                  "--quiet", "--no-progress"])
        #expect(result.status == 4)
        #expect(result.stderr.contains("\nhint: the database server has no space left in the tablespace of OID \(oid) "
            + "(pg_tblspc/\(oid)): free some, then run again (the run changed nothing)\n"), "\(result.stderr)")
        #expect(try Connection(database.conninfo).execute("SELECT count(*) FROM listings").rows == [["0"]])
    }
}
