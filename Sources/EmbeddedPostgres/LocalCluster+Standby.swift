import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension LocalCluster {
    /// The password file the standby's server reads to stream from its primary: the superuser's password, owned
    /// by the server's account (the cluster's own password file belongs to the user running mlsfeed).
    var replicationPasswordFile: String { directory + "/replication.pgpass" }

    /// Makes a hot standby of this running cluster in `directory` and starts it. `pg_basebackup -R` copies the
    /// cluster (its roles and their passwords with it) and sets the copy up to stream this cluster's WAL
    /// (`standby.signal`, `primary_conninfo`); the standby is a cluster of its own, with its own socket, that serves
    /// reads and replays every change made here. Its connections use the same password as this cluster's.
    ///
    /// For the tests and benchmarks of what runs on a standby; mlsfeed itself never makes one.
    package func startStandby(in directory: String) throws -> LocalCluster {
        let standby = LocalCluster(directory: directory, fsync: fsync)
        let fileManager = FileManager.default
        guard !fileManager.fileExists(atPath: standby.dataDirectory) else {
            throw LocalClusterError("\(standby.dataDirectory) exists already: a standby is made in a new directory")
        }
        let binaries = try ServerBinaries.locate()
        let account = try ServerAccount.current()
        try fileManager.createDirectory(atPath: standby.directory, withIntermediateDirectories: true)
        guard chmod(standby.directory, 0o700) == 0,
              !account.switchesUser || chown(standby.directory, account.uid, account.gid) == 0 else {
            throw LocalClusterError("could not give \(standby.directory) to the \(account.name) user (mode 0700): "
                + String(cString: strerror(errno)))
        }
        let passwords: String
        do {
            passwords = try String(contentsOfFile: passwordFile, encoding: .utf8)
        } catch {
            throw LocalClusterError("could not read \(passwordFile): \(error.localizedDescription)")
        }
        try PrivateFile.store(passwords, at: standby.passwordFile)
        try PrivateFile.store(passwords, at: standby.replicationPasswordFile,
                              owner: account.switchesUser ? account : nil)
        // -c fast: a spread checkpoint would make the copy wait up to checkpoint_timeout for it.
        let primary = "host=\(Self.quoted(socketDirectory)) port=\(Self.port) user=\(PasswordFile.user) "
            + "passfile=\(Self.quoted(standby.replicationPasswordFile))"
        let copied = try standby.run(binaries.pgBasebackup, ["-D", standby.dataDirectory, "-R", "-X", "stream",
                                                             "-c", "fast", "-d", primary])
        guard copied.exitCode == 0 else {
            try? fileManager.removeItem(atPath: standby.dataDirectory)
            throw LocalClusterError("pg_basebackup of \(dataDirectory) failed: "
                + copied.output.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        try standby.start()
        return standby
    }
}
