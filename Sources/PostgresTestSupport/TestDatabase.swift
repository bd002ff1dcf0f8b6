import Foundation
import EmbeddedPostgres
import Postgres

/// Fresh databases for tests on a real PostgreSQL (shared by the test targets; not part of the product).
///
/// With `MLSFEED_TEST_DATABASE_URL` set, databases are created on that server. Otherwise one throwaway
/// `LocalCluster` (fsync off) per test process is started in a temporary directory on first use and stopped
/// (`immediate`) and removed at process exit. Every call creates a new database, so tests run in parallel.
public enum TestDatabase {
    /// The conninfo of a new, empty database `t_<random>`.
    public static func fresh() throws -> String {
        try create(template: nil)
    }

    /// The conninfo of a new database `t_<random>` copied from the template `name` (`CREATE DATABASE ... TEMPLATE`),
    /// which `prepare` fills once per test process: the first call makes it, the others wait for it. `prepare` gets
    /// the template's conninfo and must close its connections before it returns. A copy costs what an empty
    /// database does, whatever `prepare` did (the MLSFeed tests' migrated database: every migration, once).
    public static func fresh(template name: String, prepare: (String) throws -> Void) throws -> String {
        try create(template: Templates.shared.database(name, prepare: prepare))
    }

    private static func create(template: String?) throws -> String {
        let server = try TestServer.shared.get()
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        let admin = try Connection(server)
        try admin.execute("CREATE DATABASE \(name)" + (template.map { " TEMPLATE \($0)" } ?? ""))
        return TestServer.conninfo(server, database: String(name))
    }

    /// The conninfo of the server's maintenance database (for CREATE DATABASE, pg_terminate_backend, ...).
    public static func server() throws -> String {
        try TestServer.shared.get()
    }
}

/// The template databases of the test process, each made once (`TestDatabase.fresh(template:prepare:)`).
private final class Templates: @unchecked Sendable {
    static let shared = Templates()

    private let lock = NSLock()
    /// Each template's database, or why it could not be made (every later copy fails with that error).
    private var made: [String: Result<String, any Error>] = [:]

    /// The database of template `name`, made by `prepare` on first use (under the lock: callers wait for it).
    func database(_ name: String, prepare: (String) throws -> Void) throws -> String {
        try lock.withLock {
            if let result = made[name] { return try result.get() }
            let result = Result { try make(name, prepare: prepare) }
            made[name] = result
            return try result.get()
        }
    }

    private func make(_ name: String, prepare: (String) throws -> Void) throws -> String {
        let server = try TestServer.shared.get()
        // A name of its own per process: several test processes may share a server (MLSFEED_TEST_DATABASE_URL).
        let database = "template_\(name)_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            .prefix(12)
        let admin = try Connection(server)
        try admin.execute("CREATE DATABASE \(database)")
        try prepare(TestServer.conninfo(server, database: database))
        // Nobody connects to it again: a copy fails while another session is connected to its template.
        try admin.execute("ALTER DATABASE \(database) ALLOW_CONNECTIONS false")
        return database
    }
}

/// The one server of the test process.
public enum TestServer {
    public static let shared: Result<String, any Error> = Result { try start() }

    /// The throwaway cluster's directory, shared by every test target in this process.
    public static let directory = NSTemporaryDirectory() + "mlsfeed-test-\(getpid())"

    private static func start() throws -> String {
        if let url = ProcessInfo.processInfo.environment["MLSFEED_TEST_DATABASE_URL"], !url.isEmpty {
            return url
        }
        let cluster = LocalCluster(directory: directory, fsync: false)
        let conninfo = try cluster.start()
        atexit {
            let cluster = LocalCluster(directory: TestServer.directory, fsync: false)
            try? cluster.stop(immediately: true)
            try? FileManager.default.removeItem(atPath: TestServer.directory)
        }
        return conninfo
    }

    /// `server` pointed at `database`: a URL gets a new path, a key=value list a trailing `dbname=`.
    public static func conninfo(_ server: String, database: String) -> String {
        guard let scheme = server.range(of: "://") else { return server + " dbname=\(database)" }
        let query = server.firstIndex(of: "?").map { String(server[$0...]) } ?? ""
        let base = server.firstIndex(of: "?").map { String(server[..<$0]) } ?? server
        let afterScheme = base[scheme.upperBound...]
        let authority = afterScheme.firstIndex(of: "/").map { String(base[..<$0]) } ?? base
        var cleanedQuery = query
        if !query.isEmpty {
            let kept = query.dropFirst().split(separator: "&").filter { !$0.hasPrefix("dbname=") }
            cleanedQuery = kept.isEmpty ? "" : "?" + kept.joined(separator: "&")
        }
        return authority + "/" + database + cleanedQuery
    }
}
