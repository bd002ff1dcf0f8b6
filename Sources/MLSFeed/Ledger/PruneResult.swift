/// What `Ledger.prune` deleted (or, in a dry run, would delete).
package struct PruneResult: Sendable, Equatable {
    /// Ledger rows.
    package var runs = 0
    /// Rows of `rejects`.
    package var rejects = 0
    /// Runs old enough to go that were kept because something still needs them (see `Ledger.prune`).
    package var keptRuns = 0
    /// Nothing was deleted: the counts are what a real prune would delete.
    package var dryRun = false

    package init() {}
}
