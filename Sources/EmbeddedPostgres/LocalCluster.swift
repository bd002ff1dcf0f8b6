import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A PostgreSQL cluster in a local directory, reachable only through a unix socket in that directory.
///
/// Layout: `<directory>/data` (the cluster), `<directory>/socket` (the socket), `<directory>/postgres.log`.
/// As root the server runs as the `postgres` user (`runuser`); as a normal user it runs as that user. Every
/// cluster is created with superuser `postgres` and `trust` authentication on its private socket.
public final class LocalCluster: Sendable {
    /// The absolute directory holding the cluster.
    public let directory: String
    /// Whether the server syncs to disk; `false` only for throwaway test clusters.
    public let fsync: Bool

    var dataDirectory: String { directory + "/data" }
    var socketDirectory: String { directory + "/socket" }
    var logFile: String { directory + "/postgres.log" }

    /// The port (the socket file's name, `.s.PGSQL.5432`); explicit so that a `PGPORT` in the environment
    /// of a client or of the server changes nothing.
    static let port = 5432

    public init(directory: String, fsync: Bool = true) {
        let absolute = directory.hasPrefix("/")
            ? directory : FileManager.default.currentDirectoryPath + "/" + directory
        self.directory = URL(fileURLWithPath: absolute).standardizedFileURL.path
        self.fsync = fsync
    }

    /// The connection string of the cluster's `postgres` database as superuser `postgres`.
    public var conninfo: String {
        "host=\(LocalCluster.quoted(socketDirectory)) dbname=postgres user=postgres port=\(LocalCluster.port)"
    }

    /// Whether a server is running on the cluster's data directory.
    public var isRunning: Bool {
        guard FileManager.default.fileExists(atPath: dataDirectory + "/PG_VERSION"),
              let binaries = try? ServerBinaries.locate(),
              let status = try? run(binaries.pgCtl, ["status", "-D", dataDirectory]) else { return false }
        return status.exitCode == 0
    }

    /// Creates the cluster if needed (`initdb`), starts it if it is not running, waits until it accepts
    /// connections, and returns `conninfo`. Idempotent, and safe when two processes start it at once.
    @discardableResult
    public func start() throws -> String {
        let binaries = try ServerBinaries.locate()
        try prepareDirectory()
        return try withLock {
            if !FileManager.default.fileExists(atPath: dataDirectory + "/PG_VERSION") {
                try initialize(binaries)
            }
            let status = try run(binaries.pgCtl, ["status", "-D", dataDirectory])
            if status.exitCode != 0 {
                // pg_ctl hands these options to /bin/sh: the socket path is single-quoted for the shell.
                let shellQuoted = "'" + socketDirectory.replacingOccurrences(of: "'", with: "'\\''") + "'"
                var options = "-c listen_addresses= -k \(shellQuoted) -p \(LocalCluster.port)"
                if !fsync { options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off" }
                let started = try run(binaries.pgCtl, ["start", "-D", dataDirectory, "-l", logFile, "-w",
                                                       "-t", "120", "-o", options])
                guard started.exitCode == 0 else {
                    throw LocalClusterError("could not start PostgreSQL in \(dataDirectory): "
                        + "\(started.output.trimmingCharacters(in: .whitespacesAndNewlines))\n\(logTail())")
                }
            }
            return conninfo
        }
    }

    /// Stops the server if it runs: `fast` shutdown, or `immediate` (no checkpoint) when asked.
    public func stop(immediately: Bool = false) throws {
        guard isRunning else { return }
        let binaries = try ServerBinaries.locate()
        let stopped = try run(binaries.pgCtl, ["stop", "-D", dataDirectory, "-w", "-t", "120",
                                               "-m", immediately ? "immediate" : "fast"])
        guard stopped.exitCode == 0 || !isRunning else {
            throw LocalClusterError("could not stop PostgreSQL in \(dataDirectory): "
                + stopped.output.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    // MARK: - Creating

    private func initialize(_ binaries: ServerBinaries) throws {
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: dataDirectory) {
            // A half-made cluster (initdb interrupted): initdb refuses a non-empty directory.
            try fileManager.removeItem(atPath: dataDirectory)
        }
        var arguments = ["-D", dataDirectory, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C"]
        if !fsync { arguments.append("--no-sync") }
        let made = try run(binaries.initdb, arguments)
        guard made.exitCode == 0 else {
            try? fileManager.removeItem(atPath: dataDirectory)
            throw LocalClusterError("initdb failed for \(dataDirectory): "
                + made.output.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// Creates the directory and socket directory, owned by the server's user, after checking the socket
    /// path length and (as root) that the `postgres` user can reach the directory.
    private func prepareDirectory() throws {
        let socketFile = socketDirectory + "/.s.PGSQL.\(LocalCluster.port)"
        guard socketFile.utf8.count < 108 else {
            throw LocalClusterError("the cluster directory \(directory) is too long for a unix socket path "
                + "(at most 93 bytes): choose a shorter one")
        }
        let fileManager = FileManager.default
        try fileManager.createDirectory(atPath: socketDirectory, withIntermediateDirectories: true)
        guard geteuid() == 0 else { return }
        guard let account = getpwnam("postgres") else {
            throw LocalClusterError("running as root needs the `postgres` system user to run the server: "
                + "install it with `apt-get install postgresql`")
        }
        let (uid, gid) = (account.pointee.pw_uid, account.pointee.pw_gid)
        for path in [directory, socketDirectory] {
            guard chown(path, uid, gid) == 0 else {
                throw LocalClusterError("could not give \(path) to the postgres user (errno \(errno))")
            }
        }
        try fileManager.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory)
        var parent = (directory as NSString).deletingLastPathComponent
        while parent != "/" && !parent.isEmpty {
            var info = stat()
            if stat(parent, &info) == 0, info.st_uid != uid, info.st_mode & 0o001 == 0 {
                throw LocalClusterError("the postgres user cannot enter \(parent), a parent of the cluster "
                    + "directory \(directory): make it traversable (chmod o+x) or choose another directory")
            }
            parent = (parent as NSString).deletingLastPathComponent
        }
    }

    // MARK: - Processes and locking

    /// Runs a server program (as `postgres` when root), returning its exit code and combined output.
    func run(_ program: String, _ arguments: [String]) throws -> (exitCode: Int32, output: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["PGDATA"] = nil
        environment["PGPORT"] = nil
        environment["LC_ALL"] = "C"
        guard geteuid() == 0 else {
            return try Subprocess.run(program, arguments, directory: directory, environment: environment)
        }
        let runuser = ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"]
            .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/sbin/runuser"
        return try Subprocess.run(runuser, ["-u", "postgres", "--", program] + arguments, directory: directory,
                                  environment: environment)
    }

    /// Runs `body` holding an exclusive `flock` on `<directory>/.lock`, so two processes never race.
    private func withLock<T>(_ body: () throws -> T) throws -> T {
        let path = directory + "/.lock"
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw LocalClusterError("could not open \(path) (errno \(errno))") }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX) == 0 else {
            throw LocalClusterError("could not lock \(path) (errno \(errno))")
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    private func logTail() -> String {
        guard let log = try? String(contentsOfFile: logFile, encoding: .utf8) else { return "" }
        return log.split(separator: "\n").suffix(15).joined(separator: "\n")
    }

    private static func quoted(_ value: String) -> String {
        guard value.contains(where: { $0 == " " || $0 == "'" || $0 == "\\" }) else { return value }
        return "'" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
            + "'"
    }
}
