@testable import EmbeddedPostgres
import Foundation
import Postgres
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `LocalCluster.startStandby(in:)`: a hot standby made with `pg_basebackup -R` that streams its primary's changes,
/// serves reads, refuses writes, and keeps its files as private as its primary's.
@Suite struct LocalClusterStandbyTests {
    @Test func aStandbyStreamsThePrimaryServesReadsAndRefusesWrites() throws {
        let root = NSTemporaryDirectory() + "mlsfeed-standby-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let primary = LocalCluster(directory: root + "/primary", fsync: false)
        defer { try? primary.stop(immediately: true) }
        try primary.start()
        let writer = try Connection(primary.conninfo)
        try writer.execute("CREATE TABLE copied AS SELECT 1 AS n")

        let standby = try primary.startStandby(in: root + "/standby")
        defer { try? standby.stop(immediately: true) }
        let reader = try Connection(standby.conninfo)
        #expect(try reader.execute("SELECT pg_is_in_recovery(), (SELECT n FROM copied)").rows == [["t", "1"]])

        // A change made after the copy arrives by streaming: polled, for at most 30 s.
        try writer.execute("INSERT INTO copied VALUES (2)")
        let deadline = ContinuousClock.now + .seconds(30)
        while try reader.execute("SELECT count(*) FROM copied").rows != [["2"]] {
            try #require(ContinuousClock.now < deadline, "the standby did not replay the insert within 30 s")
            usleep(10_000)
        }
        #expect(try writer.execute("SELECT state FROM pg_stat_replication").rows == [["streaming"]])

        #expect(throws: PostgresError.self) { try reader.execute("CREATE TEMP TABLE scratch (n int)") }
        do {
            try reader.execute("INSERT INTO copied VALUES (3)")
            Issue.record("the standby took a write")
        } catch let error as PostgresError {
            #expect(error.message == "cannot execute INSERT in a read-only transaction")
        }

        // Its directory is the server's alone; its password files are the user's and the server's.
        let serverUID = LocalClusterTests.serverUID
        #expect(try FileFacts(standby.directory) == FileFacts(mode: 0o700, owner: serverUID))
        #expect(try FileFacts(standby.passwordFile) == FileFacts(mode: 0o600, owner: geteuid()))
        #expect(try FileFacts(standby.replicationPasswordFile) == FileFacts(mode: 0o600, owner: serverUID))

        #expect(throws: LocalClusterError("\(standby.dataDirectory) exists already: a standby is made in a new "
                                          + "directory")) {
            try primary.startStandby(in: root + "/standby")
        }
    }
}
