import Foundation
import Postgres

/// A test-only pause at a named phase of a run, so fault tests hit each phase every time instead of sleeping and
/// hoping: with `MLSFEED_TEST_PAUSE=<phase>` set, the run writes the phase's name to `MLSFEED_TEST_PAUSE_FILE`
/// when it gets there and waits (up to an hour) for a signal. Unset, every call returns at once.
///
/// In a database phase the run waits inside a statement (`pg_sleep` on the run's data connection), exactly where a
/// real merge or index build would block in libpq; elsewhere it sleeps on the run's cancellation.
package enum TestPause: String, Sendable, CaseIterable {
    /// After the first input is open, before its first byte is handed on.
    case fetch
    /// After the first batch of records left the parse stage.
    case parse
    /// After the first batch was copied into the run's staging tables.
    case copy
    /// After the first merge made while the parse goes on (a later load, `load.merge_while_parsing`) has written
    /// its rows, inside the run's transaction.
    case earlyMerge
    /// At the start of the merge, inside the run's transaction.
    case merge
    /// Before the indexes dropped for a first load are built again.
    case index
    /// Before the run's ledger row is written in its transaction (the last step before COMMIT).
    case ledger
    /// After COMMIT succeeded, before the run reports.
    case committed

    /// The phase the environment asks to pause at, and where to announce it.
    private static let requested: (phase: TestPause, marker: String?)? = {
        let environment = ProcessInfo.processInfo.environment
        guard let name = environment["MLSFEED_TEST_PAUSE"], let phase = TestPause(rawValue: name) else { return nil }
        return (phase, environment["MLSFEED_TEST_PAUSE_FILE"])
    }()

    /// Pauses here when asked to, in a statement on `connection` (a database phase) or else on `cancellation`.
    /// Throws what the interrupted wait throws (a cancelled statement, `CancellationError`).
    package func reach(connection: Connection? = nil, cancellation: Cancellation? = nil) throws {
        guard let requested = Self.requested, requested.phase == self else { return }
        // The COPYs queued so far have reached the server when the pause is announced.
        try connection?.settleCopies()
        if let marker = requested.marker {
            try? Data(rawValue.utf8).write(to: URL(fileURLWithPath: marker))
        }
        if let connection {
            try connection.execute("SELECT pg_sleep(3600)")
        } else if let cancellation {
            try cancellation.sleep(seconds: 3600)
        } else {
            Thread.sleep(forTimeInterval: 3600)
        }
    }
}
