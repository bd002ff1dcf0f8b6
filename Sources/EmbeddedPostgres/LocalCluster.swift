import Foundation
import Postgres
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A PostgreSQL cluster in a local directory, reachable only by its owner through a unix socket in that directory.
///
/// Layout: `<directory>/data` (the cluster), `<directory>/socket` (the socket), `<directory>/pgpass` (the
/// superuser's password, mode 0600), `<directory>/postgres.log`. As root the server runs as the `postgres` user
/// (`runuser`) and root reads the password file; as a normal user everything belongs to that user. The
/// directories are mode 0700 (checked and fixed at every start) and so is the socket; connections authenticate
/// as superuser `postgres` with `scram-sha-256` and a random password made at `initdb` time, which libpq reads
/// from the password file (`passfile=`), so it never appears in a connection string. A cluster made by an older
/// mlsfeed, which trusted every local connection, gets a password and loses `trust` at its next start.
package final class LocalCluster: Sendable {
    /// The absolute directory holding the cluster.
    package let directory: String
    /// Whether the server syncs to disk; `false` only for throwaway test clusters.
    package let fsync: Bool

    var dataDirectory: String { directory + "/data" }
    var socketDirectory: String { directory + "/socket" }
    var logFile: String { directory + "/postgres.log" }
    /// The superuser's password in pgpass format, mode 0600, owned by the user running mlsfeed.
    var passwordFile: String { directory + "/pgpass" }
    var rulesFile: String { dataDirectory + "/pg_hba.conf" }
    /// The password for `initdb --pwfile`, owned by the server's account; it exists only while `initdb` runs.
    private var initdbPasswordFile: String { directory + "/.initdb-password" }

    /// The port (the socket file's name, `.s.PGSQL.5432`); explicit so that a `PGPORT` in the environment
    /// of a client or of the server changes nothing.
    static let port = 5432
    /// The longest wait for the server to apply rewritten authentication rules.
    private static let reloadTimeout: Duration = .seconds(10)

    package init(directory: String, fsync: Bool = true) {
        let absolute = directory.hasPrefix("/")
            ? directory : FileManager.default.currentDirectoryPath + "/" + directory
        self.directory = URL(fileURLWithPath: absolute).standardizedFileURL.path
        self.fsync = fsync
    }

    /// The connection string of the cluster's `postgres` database as superuser `postgres`.
    package var conninfo: String { conninfo(database: "postgres") }

    /// The connection string of `database` as superuser `postgres`: the socket and the password file, never the
    /// password itself.
    package func conninfo(database: String) -> String {
        "host=\(Self.quoted(socketDirectory)) dbname=\(Self.quoted(database)) user=\(PasswordFile.user) "
            + "port=\(Self.port) passfile=\(Self.quoted(passwordFile))"
    }

    /// Whether a server is running on the cluster's data directory. Reads only; creates nothing.
    package var isRunning: Bool {
        guard FileManager.default.fileExists(atPath: dataDirectory + "/PG_VERSION"),
              let binaries = try? ServerBinaries.locate(),
              let status = try? run(binaries.pgCtl, ["status", "-D", dataDirectory]) else { return false }
        return status.exitCode == 0
    }

    /// Creates the cluster if needed (`initdb`), secures its directories, retires `trust` from an older cluster,
    /// starts it if it is not running, waits until it accepts connections, and returns `conninfo`. Idempotent,
    /// and safe when two processes start it at once.
    @discardableResult
    package func start() throws -> String {
        let binaries = try ServerBinaries.locate()
        let account = try ServerAccount.current()
        try checkPaths(account)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return try withLock {
            try secureDirectories(account)
            unlink(initdbPasswordFile)  // left by an initdb that was killed
            if !FileManager.default.fileExists(atPath: dataDirectory + "/PG_VERSION") {
                try initialize(binaries, account)
            }
            let rulesWithoutTrust = try checkAuthentication()
            if try run(binaries.pgCtl, ["status", "-D", dataDirectory]).exitCode != 0 {
                try launch(binaries)
            }
            if let rulesWithoutTrust {
                try retireTrust(rulesWithoutTrust, account)
            }
            return conninfo
        }
    }

    /// Stops the server if it runs: `fast` shutdown, or `immediate` (no checkpoint) when asked.
    package func stop(immediately: Bool = false) throws {
        guard isRunning else { return }
        let binaries = try ServerBinaries.locate()
        let stopped = try run(binaries.pgCtl, ["stop", "-D", dataDirectory, "-w", "-t", "120",
                                               "-m", immediately ? "immediate" : "fast"])
        guard stopped.exitCode == 0 || !isRunning else {
            throw LocalClusterError("could not stop PostgreSQL in \(dataDirectory): "
                + stopped.output.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// Creates database `name` (a lower-case SQL identifier) unless it exists, also when another process creates
    /// it at the same time, and returns its conninfo. The server must be running.
    package func createDatabaseIfMissing(_ name: String) throws -> String {
        precondition(!name.isEmpty && name.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0)
            || $0 == "_" }, "not a plain database name: \(name)")
        let connection = try Connection(conninfo)
        let exists = try connection.execute("SELECT 1 FROM pg_database WHERE datname = $1", [name])
        if exists.rows.isEmpty {
            do {
                try connection.execute("CREATE DATABASE \"\(name)\"")
            } catch let error as PostgresError
                        where error.code == .duplicateDatabase || error.code == .uniqueViolation {
                // Created by a concurrent process: fine.
            }
        }
        return conninfo(database: name)
    }

    // MARK: - Creating

    /// Runs `initdb` with `scram-sha-256` for every connection and a new random superuser password, written to
    /// the password file first (so a cluster never exists without it).
    private func initialize(_ binaries: ServerBinaries, _ account: ServerAccount) throws {
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: dataDirectory) {
            // A half-made cluster (initdb interrupted): initdb refuses a non-empty directory.
            try fileManager.removeItem(atPath: dataDirectory)
        }
        let password = PasswordFile.generatePassword()
        try PrivateFile.store(PasswordFile.contents(password: password), at: passwordFile)
        try PrivateFile.store(password + "\n", at: initdbPasswordFile, owner: account.switchesUser ? account : nil)
        defer { unlink(initdbPasswordFile) }
        var arguments = ["-D", dataDirectory, "-U", PasswordFile.user, "--auth-local=\(HostBasedAuthentication.method)",
                         "--auth-host=\(HostBasedAuthentication.method)", "--pwfile=\(initdbPasswordFile)",
                         "-E", "UTF8", "--locale=C"]
        if !fsync { arguments.append("--no-sync") }
        let made = try run(binaries.initdb, arguments)
        guard made.exitCode == 0 else {
            try? fileManager.removeItem(atPath: dataDirectory)
            throw LocalClusterError("initdb failed for \(dataDirectory): "
                + made.output.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// Starts the server on the private socket only, the socket itself mode 0700.
    private func launch(_ binaries: ServerBinaries) throws {
        // pg_ctl hands these options to /bin/sh: the socket path is single-quoted for the shell.
        let shellQuoted = "'" + socketDirectory.replacingOccurrences(of: "'", with: "'\\''") + "'"
        var options = "-c listen_addresses= -k \(shellQuoted) -p \(Self.port) -c unix_socket_permissions=0700"
        if !fsync { options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off" }
        let started = try run(binaries.pgCtl, ["start", "-D", dataDirectory, "-l", logFile, "-w",
                                               "-t", "120", "-o", options])
        guard started.exitCode == 0 else {
            throw LocalClusterError("could not start PostgreSQL in \(dataDirectory): "
                + "\(started.output.trimmingCharacters(in: .whitespacesAndNewlines))\n\(logTail())")
        }
    }

    // MARK: - Securing

    /// Refuses a socket path too long for a unix socket, directories that belong to another user (as root, only
    /// the data directory is checked: the others are given to `postgres`), and, as root, a parent directory that
    /// `postgres` cannot enter.
    private func checkPaths(_ account: ServerAccount) throws {
        let socketFile = socketDirectory + "/.s.PGSQL.\(Self.port)"
        guard socketFile.utf8.count < 108 else {
            throw LocalClusterError("the cluster directory \(directory) is too long for a unix socket path "
                + "(at most 93 bytes): choose a shorter one")
        }
        let paths = account.switchesUser ? [dataDirectory] : [directory, dataDirectory, socketDirectory]
        for path in paths {
            var info = stat()
            guard stat(path, &info) == 0, info.st_uid != account.uid else { continue }
            let owner = ServerAccount.userName(info.st_uid)
            let what = path == dataDirectory ? "the data directory"
                : path == socketDirectory ? "the socket directory" : "the cluster directory"
            throw LocalClusterError("\(what) \(path) belongs to \(owner), but the embedded PostgreSQL runs as "
                + "\(account.name): run mlsfeed as \(owner), or use another directory")
        }
        guard account.switchesUser else { return }
        var parent = (directory as NSString).deletingLastPathComponent
        while parent != "/" && !parent.isEmpty {
            var info = stat()
            if stat(parent, &info) == 0, info.st_uid != account.uid, info.st_mode & 0o001 == 0 {
                throw LocalClusterError("the postgres user cannot enter \(parent), a parent of the cluster "
                    + "directory \(directory): make it traversable (chmod o+x) or choose another directory")
            }
            parent = (parent as NSString).deletingLastPathComponent
        }
    }

    /// Gives the cluster and socket directories to the server's account (as root) and sets every directory to
    /// mode 0700.
    private func secureDirectories(_ account: ServerAccount) throws {
        if mkdir(socketDirectory, 0o700) != 0 && errno != EEXIST {
            throw LocalClusterError("could not create \(socketDirectory): \(String(cString: strerror(errno)))")
        }
        for path in [directory, socketDirectory, dataDirectory] {
            var info = stat()
            guard stat(path, &info) == 0 else {
                if path == dataDirectory { continue }
                throw LocalClusterError("could not read \(path): \(String(cString: strerror(errno)))")
            }
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw LocalClusterError("\(path) is not a directory: remove it and start again")
            }
            if account.switchesUser, path != dataDirectory, info.st_uid != account.uid || info.st_gid != account.gid,
               chown(path, account.uid, account.gid) != 0 {
                throw LocalClusterError("could not give \(path) to the \(account.name) user: "
                    + String(cString: strerror(errno)))
            }
            if info.st_mode & 0o7777 != 0o700, chmod(path, 0o700) != 0 {
                throw LocalClusterError("could not make \(path) private (mode 0700): "
                    + String(cString: strerror(errno)))
            }
        }
    }

    /// Checks the password file (mode 0600) against the authentication rules. Returns the rules with `trust`
    /// replaced when they still trust (an older mlsfeed's cluster), after writing a new password file if the
    /// cluster has none; nil when the rules need no change.
    private func checkAuthentication() throws -> String? {
        let rules: String
        do {
            rules = try String(contentsOfFile: rulesFile, encoding: .utf8)
        } catch {
            throw LocalClusterError("could not read \(rulesFile): \(error.localizedDescription)")
        }
        let rulesWithoutTrust = HostBasedAuthentication.withoutTrust(rules)
        var info = stat()
        if lstat(passwordFile, &info) == 0 {
            try PrivateFile.restrict(passwordFile)
        } else if rulesWithoutTrust != nil {
            try PrivateFile.store(PasswordFile.contents(password: PasswordFile.generatePassword()), at: passwordFile)
        } else {
            throw LocalClusterError("the password file \(passwordFile) of the cluster in \(dataDirectory) is "
                + "missing: restore it, or stop the server and remove \(directory) to start over with an empty "
                + "cluster")
        }
        return rulesWithoutTrust
    }

    /// Moves an older mlsfeed's cluster from `trust` to `scram-sha-256`: while the server still trusts, gives
    /// the superuser the password of the password file, then writes `rules` and waits until the server applies
    /// them. Run again after an interruption, it does the same with the same password.
    private func retireTrust(_ rules: String, _ account: ServerAccount) throws {
        let contents = (try? String(contentsOfFile: passwordFile, encoding: .utf8)) ?? ""
        guard let password = PasswordFile.password(in: contents) else {
            throw LocalClusterError("the password file \(passwordFile) has no line for user \(PasswordFile.user): "
                + "remove it and start again")
        }
        let loadedAt: String?
        do {
            let admin = try Connection(conninfo)
            try admin.execute("SET password_encryption = 'scram-sha-256'")
            // The password travels as a parameter, never inside a statement's text.
            try admin.execute("SELECT set_config('mlsfeed.new_password', $1, false)", [password])
            try admin.execute("""
                DO $$BEGIN
                EXECUTE format('ALTER ROLE postgres PASSWORD %L', current_setting('mlsfeed.new_password'));
                END$$
                """)
            loadedAt = try admin.execute("SELECT pg_conf_load_time()::text").rows.first?.first ?? nil
            try PrivateFile.store(rules, at: rulesFile, owner: account.switchesUser ? account : nil)
            try admin.execute("SELECT pg_reload_conf()")
        } catch let error as PostgresError {
            throw LocalClusterError("could not give the superuser of the cluster in \(dataDirectory) a password "
                + "in place of trust authentication: \(error.message)")
        }
        // New connections are authenticated by the rules the server loaded last: wait until it has reloaded.
        let deadline = ContinuousClock.now + Self.reloadTimeout
        while true {
            let probe = try Connection(conninfo)
            if try probe.execute("SELECT pg_conf_load_time() > $1::timestamptz", [loadedAt]).rows == [["t"]] {
                return
            }
            guard ContinuousClock.now < deadline else {
                throw LocalClusterError("PostgreSQL in \(dataDirectory) did not reload \(rulesFile) within "
                    + "\(Self.reloadTimeout): restart it (mlsfeed db stop, then start)")
            }
            usleep(10_000)
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
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw LocalClusterError("could not open \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX) == 0 else {
            throw LocalClusterError("could not lock \(path): \(String(cString: strerror(errno)))")
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    private func logTail() -> String {
        guard let log = try? String(contentsOfFile: logFile, encoding: .utf8) else { return "" }
        return log.split(separator: "\n").suffix(15).joined(separator: "\n")
    }

    /// `value` as a conninfo value: single-quoted (with `\` and `'` escaped) when it holds a space or a quote.
    static func quoted(_ value: String) -> String {
        guard value.contains(where: { $0 == " " || $0 == "'" || $0 == "\\" }) else { return value }
        return "'" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
            + "'"
    }
}
