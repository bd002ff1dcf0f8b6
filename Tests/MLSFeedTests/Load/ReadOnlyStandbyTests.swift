import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// `ReadOnlyStandby` on a real streaming standby: every writer (a run's and a plan's session, migrations, a prune)
/// refuses it before any statement that could write; the readers read from it; an old schema there names the primary.
@Suite struct ReadOnlyStandbyTests {
    @Test func writersRefuseAStandbyAndReadersReadFromIt() throws {
        let database = try ReplicatedServer.fresh()
        let primary = try Connection(database.primary)
        try Migrations.apply(primary)
        try ReplicatedServer.waitForReplay()
        let standby = try Connection(database.standby)
        let refusal = ReadOnlyStandby(address: standby.address)
        #expect(refusal.description == "error: the database at \(standby.address) is a read-only hot standby; "
            + "point --database at the primary")
        #expect(standby.address.hasSuffix("/standby/socket:5432/\(try name(of: standby))"))
        #expect(try ReadOnlyStandby.isStandby(standby))
        #expect(try !ReadOnlyStandby.isStandby(primary))
        try ReadOnlyStandby.refuse(primary)

        #expect(throws: refusal) { try Migrations.apply(standby) }
        for plan in [false, true] {
            #expect(throws: refusal) {
                try LoadSession(conninfo: database.standby, options: LoadOptions(source: "sdmls", pipeline: "sample",
                                                                               mode: .full, plan: plan))
            }
        }
        let policy = PrunePolicy(runsOlderThan: RetentionAge("1d"))
        #expect(throws: refusal) { try Ledger(standby).prune(policy) }
        #expect(try Ledger(standby).prune(policy, dryRun: true).runs == 0)
        try Migrations.requireCurrent(standby)
        #expect(try Ledger(standby).runs().isEmpty)
        // The refusals left no session behind on the primary (a run's `running` row, a lock).
        #expect(try primary.execute("SELECT count(*) FROM ingest_runs").rows == [["0"]])
    }

    @Test func anOlderSchemaOnAStandbyNamesThePrimary() throws {
        let database = try ReplicatedServer.fresh()
        let primary = try Connection(database.primary)
        try Migrations.apply(primary)
        let latest = Migrations.latestVersion
        // The version before the latest (versions may jump: another branch may own the one in between).
        let before = Migrations.all.dropLast().last!.version
        try primary.execute("DELETE FROM schema_migrations WHERE version = $1", [String(latest)])
        try ReplicatedServer.waitForReplay()
        let standby = try Connection(database.standby)
        #expect(throws: LoadError("the database schema is at version \(before), this mlsfeed needs \(latest); "
                                  + "the database at \(standby.address) is a read-only hot standby: run `mlsfeed db "
                                  + "migrate` against its primary, then wait for the standby to replay it")) {
            try Migrations.requireCurrent(standby)
        }
        // The primary itself still says to migrate it.
        #expect(throws: LoadError("the database schema is at version \(before), this mlsfeed needs \(latest); "
                                  + "run `mlsfeed db migrate`")) {
            try Migrations.requireCurrent(primary)
        }
    }

    private func name(of connection: Connection) throws -> String {
        try connection.execute("SELECT current_database()").rows[0][0]!
    }
}
