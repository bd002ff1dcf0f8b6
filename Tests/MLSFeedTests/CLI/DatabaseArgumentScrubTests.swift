import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// The password of `--database` is masked in the process's own command line (`/proc/PID/cmdline`, what `ps`
/// shows) while the run goes on with the real one.
@Suite(.ownThread) struct DatabaseArgumentScrubTests {
    @Test(arguments: ["url", "keywords", "url="])
    func thePasswordLeavesTheCommandLineWhileTheRunUsesIt(form: String) throws {
        let role = try DatabaseRole.create(password: "s3cret-\(UUID().uuidString.prefix(8))", superuser: true)
        let database = try Connection(try TestDatabase.fresh()).execute("SELECT current_database()").rows[0][0]!
        let conninfo = form == "keywords" ? role.keywords(database: database) : role.url(database: database)
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("pause-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: marker) }
        let process = Process()
        process.executableURL = CLI.binary
        process.currentDirectoryURL = CLI.packageRoot
        let input = CLI.packageRoot.appendingPathComponent("Tests/MLSFeedTests/Fixtures/fetch/listings.xml").path
        process.arguments = ["run", "pipelines/sample.yaml", "--input", input, "--quiet", "--no-progress"]
            + (form == "url=" ? ["--database=\(conninfo)"] : ["--database", conninfo])
        var environment = ProcessInfo.processInfo.environment
        // The pause comes after the session opened its connections with the password.
        environment["MLSFEED_TEST_PAUSE"] = "fetch"
        environment["MLSFEED_TEST_PAUSE_FILE"] = marker
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: marker) && process.isRunning && Date() < deadline {
            usleep(20_000)
        }
        #expect(FileManager.default.fileExists(atPath: marker), "the run never reached its pause")
        let raw = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(process.processIdentifier)/cmdline"))
        let words = raw.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        #expect(!words.joined(separator: " ").contains(role.password))
        let masked = form == "keywords" ? "host=\(role.host) port=\(role.port) dbname=\(database) user=\(role.name) "
            + "password=***" : "postgresql://\(role.name):***@/\(database)?host=\(role.host)&port=\(role.port)"
        #expect(words.contains(form == "url=" ? "--database=" + masked : masked), "\(words)")
    }
}
