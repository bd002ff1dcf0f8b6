@testable import EmbeddedPostgres
import Foundation
import Postgres
import Testing

/// `mlsfeed db` through the built binary: what it prints and what it leaves alone.
@Suite struct DBCommandTests {
    @Test func statusAndURLOnlyReadAndNoCommandPrintsThePassword() throws {
        let root = NSTemporaryDirectory() + "mlsfeed-db-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let config = root + "/config.yaml"
        try "database: embedded\ndata_dir: \(root)/data\n".write(toFile: config, atomically: true, encoding: .utf8)
        func mlsfeed(_ arguments: String...) throws -> Command.Output {
            try Command.run([Command.mlsfeed] + arguments + ["--config", config])
        }
        defer { _ = try? mlsfeed("db", "stop") }
        let cluster = "\(root)/data/postgres"
        let url = "host=\(cluster)/socket dbname=mlsfeed user=postgres port=5432 passfile=\(cluster)/pgpass"

        // Nothing exists: status and url say so and create nothing.
        let stopped = try mlsfeed("db", "status")
        #expect(stopped.status == 1)
        #expect(stopped.stdout == "embedded PostgreSQL is not running (data directory \(root)/data)\n")
        let early = try mlsfeed("db", "url")
        #expect(early.status == 0)
        #expect(early.stdout == url + "\n")
        #expect(early.stderr == "note: embedded PostgreSQL is not running: start it with `mlsfeed db start`\n")
        #expect(!FileManager.default.fileExists(atPath: root + "/data"))

        let started = try mlsfeed("db", "start")
        #expect(started.status == 0, "\(started.stderr)")
        #expect(started.stdout == "embedded PostgreSQL running: \(url)\n")
        let printed = try mlsfeed("db", "url")
        #expect(printed.stdout == url + "\n")
        #expect(printed.stderr == "")
        let running = try mlsfeed("db", "status")
        #expect(running.status == 0)
        let password = try LocalCluster(directory: cluster).password()
        for output in [started, printed, running] {
            #expect(!output.stdout.contains(password) && !output.stderr.contains(password))
        }
        // The printed URL is enough to connect: libpq reads the password from the file.
        let connection = try Connection(printed.stdout.trimmingCharacters(in: .newlines))
        #expect(try connection.execute("SELECT current_database(), current_user").rows == [["mlsfeed", "postgres"]])
    }
}
