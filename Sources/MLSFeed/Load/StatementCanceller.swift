import Foundation
import Postgres

/// Frees a load run's connections when the run is stopped: `PQcancel` on whatever statement runs, unless the
/// run's COMMIT has been sent, which is never interrupted (the run then reports its true outcome).
///
/// It holds the connections weakly: a side connection closes when the code using it lets it go, not when the
/// run ends, and a connection already closed needs no cancelling.
final class StatementCanceller: @unchecked Sendable {
    private let lock = NSLock()
    private var watched: [(weak: WeakConnection, refusingLater: Bool)] = []
    private var committing = false
    private var requested = false

    /// Whether the run was told to stop before its commit began.
    var wasRequested: Bool { lock.withLock { requested } }

    /// Adds a connection whose statements a stop cancels; with `refusingLater` false (the ledger) it still runs
    /// the statements that record the stopped run.
    func watch(_ connection: Connection, refusingLater: Bool = true) {
        lock.withLock {
            watched.removeAll { $0.weak.isClosed }
            watched.append((WeakConnection(connection), refusingLater))
        }
    }

    /// How many watched connections are still open.
    var openCount: Int { lock.withLock { watched.count { !$0.weak.isClosed } } }

    /// Cancels the running statements (at once, from any thread), unless the commit was already sent.
    func stop() {
        // Strong references taken under the lock keep each target open until its cancel has been sent.
        let targets: [(connection: Connection, refusingLater: Bool)] = lock.withLock {
            requested = true
            guard !committing else { return [] }
            return watched.compactMap { watched in watched.weak.connection.map { ($0, watched.refusingLater) } }
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
