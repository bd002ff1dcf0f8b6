import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// A run that meets a table another session holds locked: it names the blocking session, gives up after
/// `timeouts.lock` with exit 4 (worth a retry later), and a stop signal ends it at once while it waits.
@Suite(.ownThread) struct LockWaitTests {
    /// A database with the schema and the sample loaded, and a session holding `listings` locked.
    static func lockedDatabase() throws -> (database: String, holder: Connection) {
        let database = try TestDatabase.migrated()
        _ = try DatabaseRunTests.run(try DatabaseRunTests.sample(), database: database)
        let holder = try Connection(database)
        try holder.execute("BEGIN")
        try holder.execute("LOCK TABLE listings IN ACCESS EXCLUSIVE MODE")
        return (database, holder)
    }

    /// A `mlsfeed run --force` of the sample into `database`, with `config` as its config.yaml.
    static func process(_ database: String, config: String) throws -> (Process, Pipe, String) {
        let dir = NSTemporaryDirectory() + "mlsfeed-lock-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try config.write(toFile: dir + "/config.yaml", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["run", CLI.packageRoot.appendingPathComponent("pipelines/sample.yaml").path,
                             "--database", database, "--force", "--quiet", "--no-progress",
                             "--config", dir + "/config.yaml"]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        return (process, errors, dir)
    }

    @Test func aLockTimeoutNamesTheBlockerAndExitsFour() throws {
        let (database, holder) = try Self.lockedDatabase()
        let (process, errors, dir) = try Self.process(database, config: "timeouts: { lock: 1 }\n")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let started = Date()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 4, "\(text)")
        #expect(Date().timeIntervalSince(started) < 60)
        #expect(text.contains("lock"), "\(text)")
        try holder.execute("ROLLBACK")
        let db = try Connection(database)
        let last = try db.execute("SELECT status, error FROM ingest_runs ORDER BY id DESC LIMIT 1").rows.first
        #expect(last?[0] == "failed", "\(String(describing: last))")
    }

    @Test func aStopSignalEndsARunWaitingOnALock() throws {
        let (database, holder) = try Self.lockedDatabase()
        defer { _ = try? holder.execute("ROLLBACK") }
        let (process, errors, dir) = try Self.process(database, config: "timeouts: { lock: 0 }\n")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Wait until the run's session is blocked by the holder (polled, bounded).
        let watcher = try Connection(database)
        let deadline = Date().addingTimeInterval(120)
        while try DatabaseRunTests.scalar(watcher, """
            SELECT count(*) FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()
            """) == "0" {
            #expect(process.isRunning && Date() < deadline, "the run never waited on the lock")
            guard process.isRunning && Date() < deadline else { return }
            usleep(50_000)
        }
        let stopped = Date()
        kill(process.processIdentifier, SIGINT)
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130, "\(text)")
        #expect(Date().timeIntervalSince(stopped) < 10, "\(text)")
        // The lock is still held: the run did not wait for it to go. (This database's lock: every copy of the
        // migrated template has the same table OIDs.)
        #expect(try DatabaseRunTests.scalar(watcher, """
            SELECT count(*) FROM pg_locks
            WHERE database = (SELECT oid FROM pg_database WHERE datname = current_database())
              AND relation = 'listings'::regclass AND mode = 'AccessExclusiveLock' AND granted
            """) == "1")
    }

    /// A `mlsfeed run` of the sample (source `sdmls`) as pipeline `name`, with `load` settings added, into
    /// `database`; its stderr pipe and scratch directory (the caller removes it).
    static func sourceRun(_ database: String, name: String = "sample", load: String) throws -> (Process, Pipe, String) {
        let dir = NSTemporaryDirectory() + "mlsfeed-source-lock-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let pipeline = try String(contentsOf: CLI.packageRoot.appendingPathComponent("pipelines/sample.yaml"),
                                  encoding: .utf8)
            .replacingOccurrences(of: "name: sample", with: "name: \(name)")
            .replacingOccurrences(of: "mapping: mappings/",
                                  with: "mapping: \(CLI.packageRoot.path)/pipelines/mappings/")
            .replacingOccurrences(of: "  mode: full", with: load.isEmpty ? "  mode: full" : "  mode: full\n" + load)
        try pipeline.write(toFile: dir + "/\(name).yaml", atomically: true, encoding: .utf8)
        try "{}\n".write(toFile: dir + "/config.yaml", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["run", dir + "/\(name).yaml", "--database", database, "--no-progress", "--quiet",
                             "--input", CLI.packageRoot.appendingPathComponent("pipelines/data/sample.xml").path,
                             "--config", dir + "/config.yaml"]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        return (process, errors, dir)
    }

    /// The source's lock held by a run of another pipeline: this one waits `load.lock_timeout`, then exits 4
    /// naming the holder, and leaves no ledger row (two pipelines of one source ran together).
    @Test func aRunOfABusySourceWaitsItsLockTimeoutThenExitsFourNamingTheHolder() throws {
        let database = try TestDatabase.fresh()
        let holder = try LoadSession(conninfo: database, options: LoadOptions(source: "sdmls", pipeline: "hourly",
                                                                               mode: .incremental))
        defer { holder.fail("done") }
        let started = try DatabaseRunTests.scalar(try Connection(database), """
            SELECT to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') FROM ingest_runs WHERE id = $1
            """, [String(holder.runID)])!
        let (process, errors, dir) = try Self.sourceRun(database, load: "  lock_timeout: 1")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let clock = ContinuousClock()
        let start = clock.now
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let busy = "source busy (run \(holder.runID) of pipeline hourly, started at \(started))"
        #expect(process.terminationStatus == 4, "\(text)")
        #expect(clock.now - start >= .seconds(1))
        #expect(text.contains(" warning sample: \(busy): waiting up to 1 s (load.lock_timeout)\n"), "\(text)")
        #expect(text.hasSuffix("\nerror: \(busy)\n"), "\(text)")
        #expect(try DatabaseRunTests.scalar(try Connection(database), "SELECT count(*) FROM ingest_runs") == "1")
    }

    /// A stop signal ends a run waiting for its source's lock at once (the wait is a statement, cancelled).
    @Test func aStopSignalEndsARunWaitingForItsSource() throws {
        let database = try TestDatabase.fresh()
        let holder = try LoadSession(conninfo: database, options: LoadOptions(source: "sdmls", pipeline: "hourly",
                                                                               mode: .incremental))
        defer { holder.fail("done") }
        let (process, errors, dir) = try Self.sourceRun(database, load: "")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let watcher = try Connection(database)
        let deadline = Date().addingTimeInterval(120)
        while try DatabaseRunTests.scalar(watcher, """
            SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'advisory'
            """) == "0" {
            try #require(process.isRunning && Date() < deadline, "the run never waited for its source")
            usleep(20_000)
        }
        let stopped = Date()
        kill(process.processIdentifier, SIGINT)
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130, "\(text)")
        #expect(Date().timeIntervalSince(stopped) < 10, "\(text)")
        #expect(try DatabaseRunTests.scalar(watcher, "SELECT count(*) FROM ingest_runs") == "1")
    }

    /// Two pipelines of one source, one with an older file and one with a newer, started together, round after
    /// round into a fresh database: both succeed (the second waits for the first: `load.lock_timeout`, 300 s by
    /// default, is far more than a run of 40 listings takes), and the listings end as the newer file has them,
    /// whichever ran first. (One died of "deadlock detected" or "duplicate key ... listings_pkey", or the older file
    /// won.)
    @Test func twoPipelinesOfOneSourceStartedTogetherEndWithTheNewerFile() throws {
        let dir = NSTemporaryDirectory() + "mlsfeed-two-pipelines-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "{}\n".write(toFile: dir + "/config.yaml", atomically: true, encoding: .utf8)
        let mapping = CLI.packageRoot.appendingPathComponent("pipelines/mappings/servlet-triples.yaml").path
        func feed(price: Int, modified: String) -> String {
            "<dump><keys>mls_number|status|list_price|modified</keys>\n"
                + (1...40).map { "<listing><values>L\($0)|Active|\(price + $0)|\(modified)</values></listing>\n" }
                    .joined() + "</dump>\n"
        }
        for (name, price, modified) in [("older", 100_000, "2026-11-10T10:00:00Z"),
                                         ("newer", 200_000, "2026-11-20T10:00:00Z")] {
            try feed(price: price, modified: modified).write(toFile: dir + "/\(name).xml", atomically: true,
                                                             encoding: .utf8)
            try """
                name: \(name)
                source: { id: shared, input: \(dir)/\(name).xml, time_zone: UTC }
                format: { type: triples }
                mapping: \(mapping)
                load: { mode: incremental }
                """.write(toFile: dir + "/\(name).yaml", atomically: true, encoding: .utf8)
        }
        for round in 1...4 {
            let database = try TestDatabase.fresh()
            let runs = try ["older", "newer"].map { name in
                let process = Process()
                process.executableURL = CLI.binary
                process.arguments = ["run", dir + "/\(name).yaml", "--database", database, "--no-progress", "--quiet",
                                     "--config", dir + "/config.yaml"]
                let errors = Pipe()
                process.standardOutput = FileHandle.nullDevice
                process.standardError = errors
                try process.run()
                return (process, errors)
            }
            for (process, errors) in runs {
                let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                #expect(process.terminationStatus == 0, "round \(round): \(text)")
            }
            let rows = try Connection(database).execute("""
                SELECT count(*), min(list_price)::text, max(list_price)::text,
                       count(*) FILTER (WHERE modification_timestamp = '2026-11-20T10:00:00Z')
                FROM listings WHERE source = 'shared'
                """).rows
            #expect(rows == [["40", "200001.00", "200040.00", "40"]], "round \(round)")
        }
    }
}
