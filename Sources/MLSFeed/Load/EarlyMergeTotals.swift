import Foundation
import Postgres

/// What the merges made while the parse went on (`MergeStatements.earlyMerge`) wrote, added up as their results
/// come back on the data connection's COPY worker; read once the connection has settled.
final class EarlyMergeTotals: @unchecked Sendable {
    private let lock = NSLock()
    private var counts = (updated: 0, inserted: 0)

    /// Adds one early merge's result (its `updated` and `inserted` columns).
    func add(_ result: QueryResult) {
        let updated = Int(result.value(0, "updated") ?? "") ?? 0
        let inserted = Int(result.value(0, "inserted") ?? "") ?? 0
        lock.lock()
        defer { lock.unlock() }
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

    /// The listings the early merges run so far updated and inserted.
    var current: (updated: Int, inserted: Int) {
        lock.lock()
        defer { lock.unlock() }
        return counts
    }
}
