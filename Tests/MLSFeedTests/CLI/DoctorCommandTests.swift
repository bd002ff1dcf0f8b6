import Foundation
import MLSFeed
import Postgres
import PostgresTestSupport
import Testing

/// `mlsfeed doctor` through the built binary: a line per check, a fix for each problem, exit 0 only when all is ok.
@Suite(.ownThread) struct DoctorCommandTests {
    /// The disk line depends on this machine: the exit code is 0 only when it is ok too.
    static func diskIsOk(_ lines: [String]) -> Bool {
        lines.contains { $0.hasPrefix("ok    disk        ") }
    }

    @Test func anUnmigratedDatabaseFailsWithTheFixThenPassesOnceMigrated() throws {
        let database = try TestDatabase.fresh()
        let before = try CLI.run(["doctor", "sample", "--database", database])
        #expect(before.status == 1)
        let lines = before.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("ok    config      config.yaml: database "))
        #expect(lines[1] == "ok    pipeline    pipelines/sample.yaml: sample, source sdmls, mode full")
        #expect(lines[2] == "ok    input       pipelines/data/sample.xml, 354162 bytes, readable")
        #expect(lines[3].hasPrefix("ok    database    reachable: PostgreSQL 15."))
        #expect(lines[4] == "fail  schema      at version 0, this mlsfeed needs \(Migrations.latestVersion)")
        #expect(lines[5] == "      fix: run `mlsfeed db migrate` (a run migrates too)")
        #expect(lines[6] == "fail  extensions  not installed in \(lines[3].split(separator: " ").last!): cube, "
            + "earthdistance")
        #expect(lines[7] == "      fix: run `mlsfeed db migrate`")
        #expect(lines[8].hasPrefix("ok    disk        ") || lines[8].hasPrefix("warn  disk        ")
            || lines[8].hasPrefix("fail  disk        "))
        #expect(try Connection(database).execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").rows
            == [["0"]])

        #expect(try CLI.run(["db", "migrate", "--database", database]).status == 0)
        let after = try CLI.run(["doctor", "sample", "--database", database])
        let checks = after.stdout.split(separator: "\n").map(String.init)
        #expect(checks[4] == "ok    schema      at version \(Migrations.latestVersion) (current)")
        #expect(checks[5].hasPrefix("ok    extensions  cube 1.") && checks[5].contains(", earthdistance 1."))
        #expect(checks.count == 7)
        #expect(after.status == (Self.diskIsOk(checks) ? 0 : 1))
    }

    @Test func anUnreachableDatabaseSkipsTheChecksThatNeedIt() throws {
        let result = try CLI.run(["doctor", "--database", "host=/nonexistent-mlsfeed dbname=x connect_timeout=2"])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines[1].hasPrefix("fail  database    error: database: "))
        #expect(lines[2] == "      fix: check --database, $MLSFEED_DATABASE_URL, the PG* variables or `database:` in "
            + "config.yaml, and that the server is up")
        #expect(lines[3] == "skip  schema      not checked: the database is not reachable")
        #expect(lines[4] == "skip  extensions  not checked: the database is not reachable")
    }

    @Test func aBrokenConfigOrPipelineIsAFailWithItsPosition() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "databse: embedded\n".write(to: dir.appendingPathComponent("config.yaml"), atomically: true,
                                         encoding: .utf8)
        let config = try CLI.run(["doctor"], in: dir)
        #expect(config.status == 1)
        #expect(config.stdout == """
            fail  config      config.yaml:1:1: error: databse: unknown key "databse"; did you mean "database"?
                  fix: correct the config file at the place shown (or pass --config PATH)
            skip  pipeline    not checked: the config is not valid
            skip  database    not checked: the config is not valid
            skip  disk        not checked: the config is not valid

            """)

        try "data_dir: data\n".write(to: dir.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        try "source: { id: x }\nformat: { type: tripels }\n".write(to: dir.appendingPathComponent("bad.yaml"),
                                                                   atomically: true, encoding: .utf8)
        let pipeline = try CLI.run(["doctor", "bad.yaml"], in: dir)
        let lines = pipeline.stdout.split(separator: "\n").map(String.init)
        #expect(lines[1].hasPrefix("fail  pipeline    bad.yaml:2:17: error: format.type: "))
        #expect(lines[2] == "      fix: correct the pipeline file at the place shown; `mlsfeed validate bad.yaml` "
            + "checks it alone")
        #expect(lines[3] == "skip  input       not checked: the pipeline is not valid")
        // No database configured and no embedded cluster: a warning, and doctor creates nothing.
        #expect(lines[4] == "warn  embedded    no embedded PostgreSQL under \(dir.path)/data/postgres yet")
        #expect(lines[5] == "      fix: `mlsfeed db start` or a first run creates it")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("data").path))
        #expect(pipeline.status == 1)
    }

    @Test func anUnreadableInputFails() throws {
        let database = try TestDatabase.migrated()
        let result = try CLI.run(["doctor", "sample", "--input", "/nonexistent/feed.xml", "--database", database])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines[2] == "fail  input       error: /nonexistent/feed.xml: no such file or directory")
        #expect(lines[3] == "      fix: check source.input (relative to the pipeline file) or --input")
        #expect(result.status == 1)
    }
}
