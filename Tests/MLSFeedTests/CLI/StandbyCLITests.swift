import Foundation
@testable import MLSFeed
import Postgres
import PostgresTestSupport
import Testing

/// Search on a streaming replica, through the built binary: a primary loads two nights, its hot standby answers
/// every search and read-only command as the primary does once it has replayed them, and every command that writes
/// refuses the standby with exit 2 before doing anything.
@Suite struct StandbyCLITests {
    @Test func searchesOnTheStandbyAnswerAsOnThePrimaryAfterEachNight() throws {
        let feeds = try StandbyFeeds.loaded.get()
        #expect(feeds.firstNight.standby == feeds.firstNight.primary)
        let primary = try feeds.searches.map { try StandbyFeeds.search($0, feeds.database.primary) }
        let standby = try feeds.searches.map { try StandbyFeeds.search($0, feeds.database.standby) }
        #expect(standby == primary)
        for (search, output) in zip(feeds.searches, primary + feeds.firstNight.primary) {
            let rows = try #require(try parsedJSON(output) as? [[String: Any]], "\(search)")
            #expect(!rows.isEmpty, "\(search) found nothing")
        }
        // The second night changed the listing the searches were drawn from: the standby's answer moved with it.
        #expect(standby[0] != feeds.firstNight.standby[0])
        #expect(try Self.everything(feeds.database.standby) == (try Self.everything(feeds.database.primary)))
        // The SQL API itself, as an application calls it on the standby.
        let page = """
            SELECT listing_id, list_price::text, cursor FROM search.detailed(status => 'Active', sort => '-price',
                                                                             lim => 50)
            """
        let onStandby = try Connection(feeds.database.standby).execute(page).rows
        #expect(onStandby.count == 50)
        #expect(onStandby == (try Connection(feeds.database.primary).execute(page).rows))
    }

    @Test func theReadOnlyCommandsAnswerOnTheStandbyAsOnThePrimary() throws {
        let feeds = try StandbyFeeds.loaded.get()
        for arguments in [["runs"], ["runs", "--format", "json"], ["runs", "show", "2"], ["history", feeds.changed],
                          ["rejects", "--run", "1"], ["rejects", "--format", "jsonl"],
                          ["prune", "--runs-older-than", "1d", "--rejects-older-than", "1d", "--dry-run"],
                          ["db", "url"]] {
            let onPrimary = try CLI.run(arguments + ["--database", feeds.database.primary])
            let onStandby = try CLI.run(arguments + ["--database", feeds.database.standby])
            #expect(onPrimary.status == 0, "\(arguments): \(onPrimary.stderr)")
            #expect(onStandby.status == 0, "\(arguments): \(onStandby.stderr)")
            if arguments != ["db", "url"] {
                #expect(onStandby.stdout == onPrimary.stdout, "\(arguments)")
            }
            #expect(onStandby.stderr == onPrimary.stderr, "\(arguments)")
        }
        let runs = try #require(try parsedJSON(try CLI.run(["runs", "--format", "json", "--database",
                                                            feeds.database.standby]).stdout) as? [[String: Any]])
        #expect(runs.map { $0["status"] as? String } == ["succeeded", "succeeded"])

        let server = try Connection(feeds.database.standby).execute("""
            SELECT current_setting('server_version'), current_database()
            """).rows[0]
        let reachable = "reachable: PostgreSQL \(server[0]!), database \(server[1]!), a read-only hot standby"
        let doctor = try CLI.run(["doctor", "--database", feeds.database.standby])
        let lines = doctor.stdout.split(separator: "\n").map(String.init)
        #expect(lines[1] == "ok    database    \(reachable) (search and the read-only commands; runs and migrations "
            + "go to the primary)")
        #expect(lines[2] == "ok    schema      at version \(Migrations.latestVersion) (current)")
        #expect(lines[3].hasPrefix("ok    extensions  cube 1."))
        #expect(doctor.status == (DoctorCommandTests.diskIsOk(lines) ? 0 : 1))

        // Checking what a run of a pipeline needs: the standby cannot take it.
        let forRun = try CLI.run(["doctor", "sample", "--database", feeds.database.standby])
        #expect(forRun.status == 1)
        let checks = forRun.stdout.split(separator: "\n").map(String.init)
        #expect(checks[3] == "fail  database    \(reachable): a run cannot write to it")
        #expect(checks[4] == "      fix: point --database at the primary (search and the read-only commands work on "
            + "the standby)")
    }

    @Test(arguments: [
        ["run", "sample", "--input", "pipelines/data/sample.xml", "--no-progress"],
        ["plan", "sample", "--input", "pipelines/data/sample.xml"],
        ["db", "migrate"],
        ["prune", "--runs-older-than", "1d"],
        ["rejects", "replay", "--run", "1"],
        ["rejects", "replay", "--run", "1", "--pipeline", "pipelines/sample.yaml"],
    ])
    func commandsThatWriteRefuseTheStandbyWithExitTwo(arguments: [String]) throws {
        let feeds = try StandbyFeeds.loaded.get()
        let result = try CLI.run(arguments + ["--database", feeds.database.standby])
        #expect(result.status == 2)
        #expect(result.stderr == "error: the database at \(feeds.standbyAddress) is a read-only hot standby; point "
            + "--database at the primary\n")
        #expect(result.stdout.isEmpty)
        #expect(try Connection(feeds.database.primary).execute("SELECT count(*) FROM ingest_runs").rows == [["2"]])
    }

    @Test func aRunPointedAtTheStandbyWritesAUsageSummary() throws {
        let feeds = try StandbyFeeds.loaded.get()
        let summary = FileManager.default.temporaryDirectory.appendingPathComponent("standby-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: summary) }
        let result = try CLI.run(["run", "sample", "--database", feeds.database.standby, "--summary-json",
                                  summary.path])
        #expect(result.status == 2)
        let written = try #require(try parsedJSON(String(contentsOf: summary, encoding: .utf8)) as? [String: Any])
        #expect(written["status"] as? String == "failed" && written["failure"] as? String == "usage")
        #expect(written["exit_code"] as? Int == 2)
        #expect(written["error"] as? String == "error: the database at \(feeds.standbyAddress) is a read-only hot "
            + "standby; point --database at the primary")
    }

    @Test func anOlderSchemaOnTheStandbySaysToMigrateThePrimary() throws {
        let database = try ReplicatedServer.fresh()
        #expect(try CLI.run(["db", "migrate", "--database", database.primary]).status == 0)
        let latest = Migrations.latestVersion
        // The version before the latest (versions may jump: another branch may own the one in between).
        let before = Migrations.all.dropLast().last!.version
        try Connection(database.primary).execute("DELETE FROM schema_migrations WHERE version = $1", [String(latest)])
        try ReplicatedServer.waitForReplay()
        let address = try Connection(database.standby).address
        for arguments in [["search", "mls", "260000001"], ["runs"], ["history", "260000001"], ["rejects"]] {
            let result = try CLI.run(arguments + ["--database", database.standby])
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr == "error: the database schema is at version \(before), this mlsfeed needs "
                + "\(latest); the database at \(address) is a read-only hot standby: run `mlsfeed db migrate` against "
                + "its primary, then wait for the standby to replay it\n", "\(arguments)")
        }
        let doctor = try CLI.run(["doctor", "--database", database.standby])
        let lines = doctor.stdout.split(separator: "\n").map(String.init)
        #expect(lines[2] == "fail  schema      at version \(before), this mlsfeed needs \(latest)")
        #expect(lines[3] == "      fix: run `mlsfeed db migrate` against the primary, then wait for this standby to "
            + "replay it")
        #expect(doctor.status == 1)
    }

    /// Every row of the tables the loads write, as text, in order.
    static func everything(_ database: String) throws -> [[String?]] {
        let connection = try Connection(database)
        return try ["listings", "agents", "listing_history", "ingest_runs", "rejects"].flatMap { table in
            try connection.execute("SELECT t::text FROM \(table) t ORDER BY 1").rows
        }
    }
}
