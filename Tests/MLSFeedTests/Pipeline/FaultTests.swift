import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed
@testable import MLSFeedFixtures

/// Faults hit at each phase of a run, every time: the binary pauses at the phase its environment names
/// (`TestPause`), the test kills or stops it there, and checks what is left.
@Suite(.ownThread) struct FaultTests {
    /// A base dump and its next night's delta, generated once for the suite.
    static let feeds: Result<URL, any Error> = Result {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("faults-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        _ = try FixtureGenerator.generate(FixtureOptions(listings: 1000, output: dir.path + "/base.xml", seed: 11))
        _ = try FixtureGenerator.generate(try FixtureOptions(arguments: [
            "--delta-of", dir.path + "/base.xml", "--seed", "12", "--changed", "5%", "--new", "1%", "--gone", "1%",
            "--output", dir.path + "/delta.xml",
        ]))
        // The sample pipeline, merging every 50 staged listings while the parse goes on (the delta stages 60), so
        // every phase of a later load meets merges made during the parse.
        let sample = try String(contentsOf: CLI.packageRoot.appendingPathComponent("pipelines/sample.yaml"),
                                encoding: .utf8)
            .replacingOccurrences(of: "mapping: mappings/",
                                  with: "mapping: \(CLI.packageRoot.path)/pipelines/mappings/")
            .replacingOccurrences(of: "load:\n", with: "load:\n  merge_while_parsing: 50\n")
        try sample.write(to: dir.appendingPathComponent("sample.yaml"), atomically: true, encoding: .utf8)
        return dir
    }

    /// A started `mlsfeed run` of the sample pipeline that pauses at `phase`.
    final class PausedRun {
        let process = Process()
        let marker: String
        private let errors = Pipe()

        convenience init(input: String, database: String, phase: TestPause) throws {
            try self.init(arguments: ["run", FaultTests.pipeline(beside: input), "--input", input,
                                      "--database", database, "--mode", "full", "--quiet", "--no-progress"],
                          phase: phase)
        }

        /// `mlsfeed` with `arguments`, pausing at `phase`.
        init(arguments: [String], phase: TestPause) throws {
            marker = FileManager.default.temporaryDirectory.appendingPathComponent("pause-\(UUID().uuidString)").path
            process.executableURL = CLI.binary
            process.arguments = arguments
            var environment = ProcessInfo.processInfo.environment
            environment["MLSFEED_TEST_PAUSE"] = phase.rawValue
            environment["MLSFEED_TEST_PAUSE_FILE"] = marker
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            try process.run()
        }

        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            try? FileManager.default.removeItem(atPath: marker)
        }

        /// Waits until the run announces the pause (or ends without reaching it).
        func waitForPause() throws {
            let deadline = Date().addingTimeInterval(120)
            while !FileManager.default.fileExists(atPath: marker) {
                guard process.isRunning else {
                    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    throw TestFailure("the run ended (status \(process.terminationStatus)) before its pause: \(text)")
                }
                guard Date() < deadline else { throw TestFailure("the run never reached its pause") }
                usleep(20_000)
            }
        }

        /// Sends `signal` and waits for the process; returns its exit status, stderr, and the seconds it took.
        func signal(_ number: Int32) -> (status: Int32, stderr: String, seconds: Double) {
            let started = Date()
            kill(process.processIdentifier, number)
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text, Date().timeIntervalSince(started))
        }
    }

    struct TestFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Everything a run decides, without run ids (a killed run uses an id that a clean run does not).
    static func content(_ database: String) throws -> [[String?]] {
        let db = try Connection(database)
        return try db.execute("""
            SELECT l::text FROM (
                SELECT listing_id, standard_status, list_price, modification_timestamp, city, postal_code, extra,
                       content_hash, raw_hash, off_market_at IS NOT NULL AS off_market, off_market_as_of
                FROM listings) l ORDER BY 1
            """).rows
            + db.execute("SELECT a::text FROM (SELECT agent_mls_id, first_name, last_name, email, content_hash "
                         + "FROM agents) a ORDER BY 1").rows
            + db.execute("""
                SELECT h::text FROM (SELECT listing_id, modification_timestamp, change, old_price, new_price,
                                            old_status, new_status FROM listing_history) h ORDER BY 1
                """).rows
            + db.execute("SELECT count(*)::text FROM pg_indexes WHERE tablename = 'listings'").rows
    }

    /// The pipeline written beside the feeds (`feeds`).
    static func pipeline(beside input: String) -> String {
        URL(fileURLWithPath: input).deletingLastPathComponent().appendingPathComponent("sample.yaml").path
    }

    static func run(_ input: String, _ database: String) throws -> CLI.Result {
        try CLI.run(["run", Self.pipeline(beside: input), "--input", input, "--database", database, "--mode", "full",
                     "--quiet", "--no-progress"])
    }

    /// Which dump a phase is met in: the merge only in a later load, the index build only in a first one.
    static func scenario(_ phase: TestPause) -> (base: Bool, input: String) {
        phase == .index ? (false, "base.xml") : (true, "delta.xml")
    }

    @Test(arguments: TestPause.allCases)
    func killedAtEveryPhaseThenRerunEqualsOneCleanRun(phase: TestPause) throws {
        let dir = try Self.feeds.get()
        let (withBase, input) = Self.scenario(phase)
        let clean = try TestDatabase.migrated()
        let faulty = try TestDatabase.migrated()
        for database in [clean, faulty] where withBase {
            #expect(try Self.run(dir.path + "/base.xml", database).status == 0)
        }
        #expect(try Self.run(dir.path + "/\(input)", clean).status == 0)

        let paused = try PausedRun(input: dir.path + "/\(input)", database: faulty, phase: phase)
        try paused.waitForPause()
        _ = paused.signal(SIGKILL)
        let rerun = try Self.run(dir.path + "/\(input)", faulty)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try Self.content(faulty) == Self.content(clean))
        let statuses = try Connection(faulty).execute("SELECT status FROM ingest_runs ORDER BY id").rows
            .map { $0[0] ?? "" }
        // A run killed after its commit succeeded (and its rerun finds the dump unchanged); any other is
        // marked interrupted by the next run.
        let expected = phase == .committed ? ["succeeded", "unchanged"] : ["interrupted", "succeeded"]
        #expect(Array(statuses.suffix(2)) == expected)
    }

    @Test(arguments: TestPause.allCases)
    func aSignalEndsTheRunWithinTwoSecondsInEveryPhase(phase: TestPause) throws {
        let dir = try Self.feeds.get()
        let (withBase, input) = Self.scenario(phase)
        let database = try TestDatabase.migrated()
        if withBase {
            #expect(try Self.run(dir.path + "/base.xml", database).status == 0)
        } else {
            try Migrations.apply(Connection(database))
        }
        let before = try Self.content(database)

        let paused = try PausedRun(input: dir.path + "/\(input)", database: database, phase: phase)
        try paused.waitForPause()
        let ended = paused.signal(SIGINT)
        #expect(ended.seconds < 2, "\(phase) took \(ended.seconds) s")
        let status = try Connection(database).execute("SELECT status FROM ingest_runs ORDER BY id DESC LIMIT 1")
            .rows.first?.first ?? nil
        if phase == .committed {
            // The commit was sent: the run reports its true outcome.
            #expect(ended.status == 0, "\(ended.stderr)")
            #expect(status == "succeeded")
            #expect(try Self.content(database) != before)
        } else {
            #expect(ended.status == 130, "\(ended.stderr)")
            #expect(ended.stderr.contains("error: the run was interrupted; the database keeps its last good state"))
            #expect(status == "interrupted")
            #expect(try Self.content(database) == before)
        }
    }
}
