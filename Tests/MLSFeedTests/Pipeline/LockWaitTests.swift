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
}
