import Foundation
import Postgres

/// Frees a load run's connections when the run is stopped: `PQcancel` on whatever statement runs, unless the
/// run's COMMIT has been sent, which is never interrupted (the run then reports its true outcome).
final class StatementCanceller: @unchecked Sendable {
    private let lock = NSLock()
    private var connections: [(connection: Connection, refusingLater: Bool)] = []
    private var committing = false
    private var requested = false

    /// Whether the run was told to stop before its commit began.
    var wasRequested: Bool { lock.withLock { requested } }

    /// Adds a connection whose statements a stop cancels; with `refusingLater` false (the ledger) it still runs
    /// the statements that record the stopped run.
    func watch(_ connection: Connection, refusingLater: Bool = true) {
        lock.withLock { connections.append((connection, refusingLater)) }
    }

    /// Cancels the running statements (at once, from any thread), unless the commit was already sent.
    func stop() {
        let targets = lock.withLock {
            requested = true
            return committing ? [] : connections
        }
        for target in targets { target.connection.cancel(refusingLater: target.refusingLater) }
    }

    /// Marks the COMMIT as sent; throws `CancellationError` when a stop came first (the run then rolls back).
    func beginCommit() throws {
        try lock.withLock {
            if requested { throw CancellationError() }
            committing = true
        }
    }
}
