/// What the stages counted and saw in one run, recorded in the ledger whatever the run's outcome.
package struct RunTotals: Sendable {
    package var read = 0
    package var rejected = 0
    /// Duplicates the dedupe stage dropped in memory (the loader counts the ones it resolves itself).
    package var droppedDuplicates = 0
    package var inputs: [InputIdentity] = []
    package var timings: [String: Double] = [:]
    package var warnings: [String] = []
    /// The first rejects, compiler-style.
    package var sampleRejects: [String] = []
    /// Control characters removed from values (`format.sanitize` and text cleaning).
    package var removedCharacters = 0
    /// Whether the dump was read whole (see `Completeness`).
    package var completeness = Completeness()
    /// The dump's header time (UTC canonical timestamp text), when its format has one; else the load takes the
    /// newest modification timestamp it wrote as the dump's as-of time.
    package var headerAsOf: String?
    /// For a replicated Web API resource: its name (`Property`), whose position the run moves.
    package var replicationResource: String?
    /// Where the run leaves that resource (`ReplicationPosition.after`); nil: never loaded anything.
    package var replicationPosition: ReplicationPosition?
    /// For a key sweep: the resource whose sweep time (`replication_state.swept_at`) the run records.
    package var sweepResource: String?
    /// Set when a request budget stopped the run at a page boundary: it commits what it read as `paused`.
    package var paused: RequestBudgetPause?

    package init(read: Int = 0, rejected: Int = 0, droppedDuplicates: Int = 0, inputs: [InputIdentity] = [],
                timings: [String: Double] = [:], warnings: [String] = []) {
        self.read = read
        self.rejected = rejected
        self.droppedDuplicates = droppedDuplicates
        self.inputs = inputs
        self.timings = timings
        self.warnings = warnings
    }
}
