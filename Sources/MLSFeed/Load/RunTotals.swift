/// What the stages counted and saw in one run, recorded in the ledger whatever the run's outcome.
public struct RunTotals: Sendable {
    public var read = 0
    public var rejected = 0
    /// Duplicates the dedupe stage dropped in memory (the loader counts the ones it resolves itself).
    public var droppedDuplicates = 0
    public var inputs: [InputIdentity] = []
    public var timings: [String: Double] = [:]
    public var warnings: [String] = []
    /// The first rejects, compiler-style.
    public var sampleRejects: [String] = []
    /// Control characters removed from values (`format.sanitize` and text cleaning).
    public var removedCharacters = 0
    /// Whether the dump was read whole (see `Completeness`).
    public var completeness = Completeness()
    /// The dump's header time (UTC canonical timestamp text), when its format has one; else the load takes the
    /// newest modification timestamp it wrote as the dump's as-of time.
    public var headerAsOf: String?
    /// For a replicated Web API resource: its name (`Property`), whose high-water mark the run moves.
    public var replicationResource: String?
    /// Set when a request budget stopped the run at a page boundary: it commits what it read as `paused`.
    public var paused: RequestBudgetPause?

    public init(read: Int = 0, rejected: Int = 0, droppedDuplicates: Int = 0, inputs: [InputIdentity] = [],
                timings: [String: Double] = [:], warnings: [String] = []) {
        self.read = read
        self.rejected = rejected
        self.droppedDuplicates = droppedDuplicates
        self.inputs = inputs
        self.timings = timings
        self.warnings = warnings
    }
}
