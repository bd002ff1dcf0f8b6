import Foundation
import EmbeddedPostgres
import Postgres

/// A throwaway primary and a hot standby streaming from it, for the tests of what runs on a standby (shared by the
/// test targets; not part of the product).
///
/// Both are `LocalCluster`s (fsync off) in a temporary directory: the primary is a cluster of its own, not
/// `TestServer`'s, so the standby replays only the WAL of the tests that use it. They start on first use and are
/// stopped (`immediate`) and removed at process exit. A test makes its own database on the primary (`fresh()`),
/// writes there, and reads on the standby after `waitForReplay()`.
public enum ReplicatedServer {
    /// The maintenance databases of the two servers.
    public struct Servers: Sendable {
        /// The conninfo of the primary's `postgres` database.
        public let primary: String
        /// The conninfo of the standby's `postgres` database.
        public let standby: String
    }

    /// One database on both servers: written on the primary, read on the standby.
    public struct Database: Sendable {
        /// The database on the primary.
        public let primary: String
        /// The same database on the standby.
        public let standby: String
    }

    /// The replay did not reach the primary's position in time.
    public struct ReplayTimeout: Error, CustomStringConvertible {
        public let description: String
    }

    /// The servers of the test process.
    public static let shared: Result<Servers, any Error> = Result { try start() }

    /// The directory holding both clusters (`primary/`, `standby/`).
    public static let directory = NSTemporaryDirectory() + "mlsfeed-replicas-\(getpid())"

    private static var primaryCluster: LocalCluster { LocalCluster(directory: directory + "/primary", fsync: false) }
    private static var standbyCluster: LocalCluster { LocalCluster(directory: directory + "/standby", fsync: false) }

    private static func start() throws -> Servers {
        let primary = primaryCluster
        atexit {
            try? ReplicatedServer.standbyCluster.stop(immediately: true)
            try? ReplicatedServer.primaryCluster.stop(immediately: true)
            try? FileManager.default.removeItem(atPath: ReplicatedServer.directory)
        }
        let primaryConninfo = try primary.start()
        let standby = try primary.startStandby(in: standbyCluster.directory)
        return Servers(primary: primaryConninfo, standby: standby.conninfo)
    }

    /// A new, empty database `r_<random>` on the primary, once the standby has replayed its creation.
    public static func fresh() throws -> Database {
        let servers = try shared.get()
        let name = "r_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        try Connection(servers.primary).execute("CREATE DATABASE \(name)")
        try waitForReplay()
        return Database(primary: primaryCluster.conninfo(database: String(name)),
                        standby: standbyCluster.conninfo(database: String(name)))
    }

    /// Waits until the standby has replayed all the WAL the primary had written when called (every commit made
    /// before the call), polling every 10 ms for at most `timeout`.
    ///
    /// The target is the primary's insert position (`pg_current_wal_insert_lsn()`), not its write position: the
    /// clusters commit asynchronously (`synchronous_commit = off`), so a commit's record may not be written yet when
    /// the commit returns; the WAL writer writes and sends it within a few hundred milliseconds.
    public static func waitForReplay(timeout: Duration = .seconds(60)) throws {
        let servers = try shared.get()
        let target = try Connection(servers.primary).execute("SELECT pg_current_wal_insert_lsn()::text")
            .rows.first?.first ?? nil
        let standby = try Connection(servers.standby)
        let deadline = ContinuousClock.now + timeout
        while true {
            let replayed = try standby.execute("""
                SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn, pg_last_wal_replay_lsn()::text
                """, [target])
            if replayed.rows.first?.first == "t" { return }
            guard ContinuousClock.now < deadline else {
                throw ReplayTimeout(description: "the standby replayed up to "
                    + "\((replayed.rows.first?[1] ?? nil) ?? "nothing"), not \(target ?? "?"), within \(timeout)")
            }
            usleep(10_000)
        }
    }
}
