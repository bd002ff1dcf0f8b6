import Dispatch
import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// A run's side connections: closed as soon as their user lets them go, cancelled by a stop while open.
@Suite(.ownThread) struct StatementCancellerTests {
    typealias F = LoadFixtures

    /// The number of the server's backends with process id `pid` (0 or 1), only those running `statement` if given.
    private func backends(_ watcher: Connection, _ pid: Int32, running statement: String? = nil) throws -> String? {
        try watcher.execute("""
            SELECT count(*) FROM pg_stat_activity
            WHERE pid = $1 AND ($2::text IS NULL OR (query = $2 AND state = 'active'))
            """, [String(pid), statement]).rows[0][0]
    }

    /// A side connection let go of closes at once: its backend exits while the run goes on, and the run still
    /// commits (before, the canceller kept every side connection open until the run ended).
    @Test func aSideConnectionLetGoOfClosesBeforeTheRunEnds() throws {
        let db = try TestDatabase.migrated()
        let watcher = try Connection(db)
        let session = try LoadSession(conninfo: db, options: F.options())
        let open = session.canceller.openCount
        var side: Connection? = try session.sideConnection()
        let pid = try #require(side?.backendPID)
        #expect(session.canceller.openCount == open + 1)
        #expect(try backends(watcher, pid) == "1")
        side = nil
        #expect(session.canceller.openCount == open)
        try waitUntil { try backends(watcher, pid) == "0" }
        try session.write([F.listing("A")])
        let result = try session.commit(RunTotals(read: 1))
        #expect(result.inserted == 1)
    }

    /// A stop still reaches a side connection that is open: its running statement ends with `queryCanceled`.
    @Test func aStopCancelsTheStatementOfAnOpenSideConnection() throws {
        let db = try TestDatabase.migrated()
        let watcher = try Connection(db)
        let session = try LoadSession(conninfo: db, options: F.options())
        let side = UncheckedBox(try session.sideConnection())
        let pid = side.value.backendPID
        let failure = Locked<PostgresError?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            do { _ = try side.value.execute("SELECT pg_sleep(60)") } catch let error as PostgresError {
                failure.update { $0 = error }
            } catch {}
            done.signal()
        }
        try waitUntil(seconds: 30) {
            try backends(watcher, pid, running: "SELECT pg_sleep(60)") == "1"
        }
        session.canceller.stop()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(failure.value?.code == .queryCanceled)
    }
}
