import Foundation
import Postgres

/// What the merges made while the parse went on (`MergeStatements.earlyMerge`) wrote, added up as their results
/// come back on the data connection's COPY worker; read once the connection has settled.
final class EarlyMergeTotals: @unchecked Sendable {
    private let lock = NSLock()
    private var counts = (statements: 0, updated: 0, inserted: 0)

    /// Adds one early merge's result (its `updated` and `inserted` columns).
    func add(_ result: QueryResult) {
        let updated = Int(result.value(0, "updated") ?? "") ?? 0
        let inserted = Int(result.value(0, "inserted") ?? "") ?? 0
        lock.lock()
        defer { lock.unlock() }
        counts.statements += 1
        counts.updated += updated
        counts.inserted += inserted
    }

    /// Takes back listings whose early merge was undone (`MergeStatements.removeRepeatedEarlyMerges`).
    func undo(updated: Int, inserted: Int) {
        lock.lock()
        defer { lock.unlock() }
        counts.updated -= updated
        counts.inserted -= inserted
    }

    /// The early merges run so far, and the listings they updated and inserted.
    var current: (statements: Int, updated: Int, inserted: Int) {
        lock.lock()
        defer { lock.unlock() }
        return counts
    }
}
