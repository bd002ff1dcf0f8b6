@testable import EmbeddedPostgres
import Foundation
import Postgres
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A cluster as mlsfeed left it before passwords: every rule `trust`, no password file, a superuser without a
/// password, directories with the umask's modes.
enum LegacyCluster {
    /// Turns the stopped `cluster` into a legacy one and starts its server the old way (no socket mode, no
    /// password); returns the old conninfo, which has no password file.
    static func make(from cluster: LocalCluster) throws -> String {
        let rules = try String(contentsOfFile: cluster.rulesFile, encoding: .utf8)
        try rules.replacingOccurrences(of: "scram-sha-256", with: "trust")
            .write(toFile: cluster.rulesFile, atomically: false, encoding: .utf8)
        try FileManager.default.removeItem(atPath: cluster.passwordFile)
        chmod(cluster.directory, 0o755)
        chmod(cluster.socketDirectory, 0o755)
        chmod(cluster.dataDirectory, 0o750)
        let socket = "'" + cluster.socketDirectory.replacingOccurrences(of: "'", with: "'\\''") + "'"
        let started = try cluster.run(try ServerBinaries.locate().pgCtl, [
            "start", "-D", cluster.dataDirectory, "-l", cluster.logFile, "-w", "-o",
            "-c listen_addresses= -k \(socket) -p 5432 -c fsync=off",
        ])
        guard started.exitCode == 0 else { throw LocalClusterError("legacy start failed: \(started.output)") }
        let old = cluster.conninfoWithoutPasswordFile()
        try Connection(old).execute("ALTER ROLE postgres PASSWORD NULL")
        return old
    }
}
