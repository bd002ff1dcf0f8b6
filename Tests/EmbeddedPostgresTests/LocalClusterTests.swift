@testable import EmbeddedPostgres
import Foundation
import Postgres
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct LocalClusterTests {
    /// The account the server runs as: `postgres` under root, else the user running the tests.
    static let serverUID = geteuid() == 0 ? FileFacts.uid(of: "postgres") ?? 0 : geteuid()

    @Test func createsStartsReusesAndStops() throws {
        let directory = NSTemporaryDirectory() + "mlsfeed cluster-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cluster = LocalCluster(directory: directory, fsync: false)
        defer { try? cluster.stop(immediately: true) }
        #expect(!cluster.isRunning)

        // Two starts at once (as two processes would): both return the same conninfo, one server runs.
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            results.append(Result { try cluster.start() })
        }
        let conninfos = try results.all.map { try $0.get() }
        #expect(conninfos == [cluster.conninfo, cluster.conninfo])
        #expect(cluster.conninfo == "host='\(directory)/socket' dbname=postgres user=postgres port=5432 "
            + "passfile='\(directory)/pgpass'")
        #expect(cluster.isRunning)

        let connection = try Connection(cluster.conninfo)
        try connection.execute("CREATE TABLE kept (x int)")
        #expect(try connection.execute("SHOW listen_addresses").rows == [[""]])
        #expect(try connection.execute("SHOW fsync").rows == [["off"]])

        try cluster.stop()
        #expect(!cluster.isRunning)
        try cluster.stop()  // stopping a stopped cluster is fine

        // Started again, the existing cluster is reused with its data.
        #expect(try cluster.start() == cluster.conninfo)
        #expect(try cluster.start() == cluster.conninfo)
        let again = try Connection(cluster.conninfo)
        #expect(try again.execute("SELECT count(*) FROM kept").rows == [["0"]])
        #expect(try cluster.createDatabaseIfMissing("app") == cluster.conninfo(database: "app"))
        #expect(try cluster.createDatabaseIfMissing("app") == cluster.conninfo(database: "app"))
        #expect(try Connection(cluster.conninfo(database: "app")).execute("SELECT current_database()").rows
            == [["app"]])
    }

    @Test func onlyItsOwnerGetsIn() throws {
        let directory = NSTemporaryDirectory() + "mlsfeed-secure-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cluster = LocalCluster(directory: directory, fsync: false)
        defer { try? cluster.stop(immediately: true) }
        try cluster.start()
        try expectPrivate(cluster)
        // initdb's password file is gone; what is left is the cluster's.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            == [".lock", "data", "pgpass", "postgres.log", "socket"])
        #expect(try FileFacts(cluster.socketDirectory + "/.s.PGSQL.5432")
            == FileFacts(mode: 0o700, owner: Self.serverUID))

        // Every rule asks for a password: no trust.
        let rules = try String(contentsOfFile: cluster.rulesFile, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") && !$0.allSatisfy(\.isWhitespace) }
        #expect(rules.count == 6)
        #expect(rules.allSatisfy { $0.hasSuffix(" scram-sha-256") && !$0.contains("trust") })

        // The password lives in the password file only; libpq reads it from there.
        let password = try cluster.password()
        #expect(password.count == 48)
        #expect(!cluster.conninfo.contains(password))
        let connection = try Connection(cluster.conninfo)
        #expect(try connection.execute("SHOW unix_socket_permissions").rows == [["0700"]])
        #expect(try connection.execute(
            "SELECT rolpassword LIKE 'SCRAM-SHA-256$%' FROM pg_authid WHERE rolname = 'postgres'").rows == [["t"]])
        try expectPasswordRequired(cluster)

        // Loosened modes are made private again at the next start.
        try cluster.stop()
        for (path, mode) in [(directory, 0o755), (cluster.socketDirectory, 0o777), (cluster.dataDirectory, 0o750),
                             (cluster.passwordFile, 0o644)] as [(String, mode_t)] {
            #expect(chmod(path, mode) == 0)
        }
        try cluster.start()
        try expectPrivate(cluster)
    }

    /// A cluster an older mlsfeed made with `trust`, stopped or still running, is moved to a password at its next
    /// start, keeping its data; `db status` and `db url` before that change nothing.
    @Test(arguments: [false, true])
    func givesAnOlderTrustClusterAPassword(running: Bool) throws {
        let root = NSTemporaryDirectory() + "mlsfeed-legacy-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let cluster = LocalCluster(directory: root + "/data/postgres", fsync: false)
        defer { try? cluster.stop(immediately: true) }
        try cluster.start()
        try cluster.stop()
        let old = try LegacyCluster.make(from: cluster)
        try Connection(old).execute("CREATE TABLE kept (x int)")
        if !running { try cluster.stop() }

        let config = root + "/config.yaml"
        try "database: embedded\ndata_dir: \(root)/data\n".write(toFile: config, atomically: true, encoding: .utf8)
        let status = try Command.run([Command.mlsfeed, "db", "status", "--config", config])
        #expect(status.status == (running ? 0 : 1), "\(status.stderr)")
        let url = try Command.run([Command.mlsfeed, "db", "url", "--config", config])
        #expect(url.status == 0, "\(url.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cluster.passwordFile))
        #expect(try String(contentsOfFile: cluster.rulesFile, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") && $0.hasSuffix(" trust") }.count == 6)

        try cluster.start()
        let rules = try String(contentsOfFile: cluster.rulesFile, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") && !$0.allSatisfy(\.isWhitespace) }
        #expect(rules.count == 6)
        #expect(rules.allSatisfy { $0.hasSuffix(" scram-sha-256") })
        try expectPrivate(cluster)
        #expect(try Connection(cluster.conninfo).execute("SELECT count(*) FROM kept").rows == [["0"]])
        // At once (the server has applied the new rules): no way in without the password, also not the old way.
        try expectPasswordRequired(cluster)
        #expect(throws: PostgresError.self) { try Connection(old) }

        try cluster.stop()
        try cluster.start()
        #expect(try Connection(cluster.conninfo).execute("SELECT count(*) FROM kept").rows == [["0"]])
    }

    @Test func rejectsASocketPathTooLong() throws {
        let directory = NSTemporaryDirectory() + String(repeating: "d", count: 100)
        let error = try #require(throws: LocalClusterError.self) { try LocalCluster(directory: directory).start() }
        #expect(error.message == "the cluster directory \(directory) is too long for a unix socket path "
            + "(at most 93 bytes): choose a shorter one")
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to make a data directory that belongs to another user"))
    func refusesADataDirectoryOfAnotherUser() throws {
        let directory = NSTemporaryDirectory() + "mlsfeed-foreign-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let nobody = try #require(FileFacts.uid(of: "nobody"))
        try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: true)
        #expect(chown(directory + "/data", nobody, nobody) == 0)
        let error = try #require(throws: LocalClusterError.self) {
            try LocalCluster(directory: directory, fsync: false).start()
        }
        #expect(error.message == "the data directory \(directory)/data belongs to nobody, but the embedded "
            + "PostgreSQL runs as postgres: run mlsfeed as nobody, or use another directory")
        #expect(try FileFacts(directory + "/data").owner == nobody)
        #expect(try FileFacts(directory).owner == 0)
        #expect(!FileManager.default.fileExists(atPath: directory + "/socket"))
    }

    /// The cluster's directories are mode 0700 and belong to the server's account; the password file is 0600.
    private func expectPrivate(_ cluster: LocalCluster,
                               sourceLocation: SourceLocation = #_sourceLocation) throws {
        for path in [cluster.directory, cluster.socketDirectory, cluster.dataDirectory] {
            #expect(try FileFacts(path) == FileFacts(mode: 0o700, owner: Self.serverUID), "\(path)",
                    sourceLocation: sourceLocation)
        }
        #expect(try FileFacts(cluster.passwordFile) == FileFacts(mode: 0o600, owner: geteuid()),
                sourceLocation: sourceLocation)
    }

    /// Connections without the password file, or with a wrong password, are refused.
    private func expectPasswordRequired(_ cluster: LocalCluster,
                                        sourceLocation: SourceLocation = #_sourceLocation) throws {
        let none = try #require(throws: PostgresError.self, sourceLocation: sourceLocation) {
            try Connection(cluster.conninfoWithoutPasswordFile("passfile=/nonexistent"))
        }
        #expect(none.message.hasSuffix("fe_sendauth: no password supplied"), "\(none.message)",
                sourceLocation: sourceLocation)
        let wrong = try #require(throws: PostgresError.self, sourceLocation: sourceLocation) {
            try Connection(cluster.conninfoWithoutPasswordFile("password=not-the-password"))
        }
        #expect(wrong.message.hasSuffix("password authentication failed for user \"postgres\""),
                "\(wrong.message)", sourceLocation: sourceLocation)
    }
}

/// A thread-safe list for results gathered on several threads.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Result<String, any Error>] = []

    func append(_ item: Result<String, any Error>) {
        lock.withLock { items.append(item) }
    }

    var all: [Result<String, any Error>] { lock.withLock { items } }
}
