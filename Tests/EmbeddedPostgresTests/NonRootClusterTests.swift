@testable import EmbeddedPostgres
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The embedded cluster of a normal user: run by a throwaway account, reachable by it alone.
@Suite struct NonRootClusterTests {
    @Test(.enabled(if: geteuid() == 0,
                   "needs root to create a throwaway user (useradd) and run mlsfeed as that user (runuser)"))
    func aNormalUsersClusterIsTheirsAlone() throws {
        let user = "mlsfeedt" + UUID().uuidString.lowercased().prefix(8)
        let added = try Command.run(["/usr/sbin/useradd", "--no-create-home", "--shell", "/usr/sbin/nologin",
                                     "--user-group", user])
        try #require(added.status == 0, "\(added.stderr)")
        defer { _ = try? Command.run(["/usr/sbin/userdel", user]) }
        let uid = try #require(FileFacts.uid(of: user))
        let gid = try #require(getpwnam(user)).pointee.pw_gid

        // A home of the user's own (0755, like most homes), holding a copy of mlsfeed the user can run.
        let home = NSTemporaryDirectory() + "mlsfeed-\(user)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let mlsfeed = home + "/mlsfeed"
        try FileManager.default.copyItem(atPath: Command.mlsfeed, toPath: mlsfeed)
        let config = home + "/config.yaml"
        try "database: embedded\ndata_dir: \(home)/data\n".write(toFile: config, atomically: true, encoding: .utf8)
        for path in [home, mlsfeed, config] { #expect(chown(path, uid, gid) == 0) }
        #expect(chmod(home, 0o755) == 0)
        func asUser(_ arguments: String...) throws -> Command.Output {
            try Command.run([mlsfeed] + arguments + ["--config", config], as: user, in: home)
        }
        defer {
            let stopped = try? asUser("db", "stop")
            if stopped?.status != 0 { Issue.record("db stop failed: \(stopped?.stderr ?? "")") }
        }

        let started = try asUser("db", "start")
        try #require(started.status == 0, "\(started.stderr)")
        let cluster = LocalCluster(directory: home + "/data/postgres")

        // The server runs as the user; everything of the cluster is the user's and private.
        let postmaster = try String(contentsOfFile: cluster.dataDirectory + "/postmaster.pid", encoding: .utf8)
        let pid = try #require(postmaster.split(separator: "\n").first)
        #expect(try FileFacts("/proc/\(pid)").owner == uid)
        for path in [cluster.directory, cluster.dataDirectory, cluster.socketDirectory,
                     cluster.socketDirectory + "/.s.PGSQL.5432"] {
            #expect(try FileFacts(path) == FileFacts(mode: 0o700, owner: uid), "\(path)")
        }
        #expect(try FileFacts(cluster.passwordFile) == FileFacts(mode: 0o600, owner: uid))

        // The user connects with the printed URL, which holds no password.
        let url = try asUser("db", "url")
        #expect(!url.stdout.contains(try cluster.password()))
        let psql = try ServerBinaries.locate().directory + "/psql"
        let own = try Command.run([psql, "-X", "-A", "-t", "-c", "SELECT current_user",
                                   "-d", url.stdout.trimmingCharacters(in: .newlines)], as: user, in: home)
        #expect(own.status == 0, "\(own.stderr)")
        #expect(own.stdout == "postgres\n")

        // Another user gets nowhere: the socket and the password file are out of reach.
        let other = try Command.run([psql, "-X", "-A", "-t", "-w", "-c", "SELECT 1",
                                     "-d", cluster.conninfo], as: "nobody")
        #expect(other.status != 0)
        #expect(other.stderr.contains("Permission denied"), "\(other.stderr)")
    }
}
