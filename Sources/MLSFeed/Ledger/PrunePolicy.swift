/// What `Ledger.prune` deletes: ledger rows (`ingest_runs`) and `rejects` older than the given ages, in batches.
package struct PrunePolicy: Sendable, Equatable {
    /// Runs that started longer ago than this are deleted (except the runs `Ledger.prune` always keeps).
    package var runsOlderThan: RetentionAge?
    /// Rejects of runs that started longer ago than this are deleted.
    package var rejectsOlderThan: RetentionAge?
    /// Rows deleted per statement (each statement its own transaction, so locks and WAL stay small).
    package var batchSize = 10_000

    package init(runsOlderThan: RetentionAge? = nil, rejectsOlderThan: RetentionAge? = nil) {
        self.runsOlderThan = runsOlderThan
        self.rejectsOlderThan = rejectsOlderThan
    }
}
