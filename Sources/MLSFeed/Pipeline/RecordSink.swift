/// Where the load stage sends what survived dedupe: the database, or a JSONL file in a dry run.
protocol RecordSink: AnyObject, Sendable {
    /// Takes one batch: records and rejects, each in feed order.
    func write(_ records: [NormalizedRecord], rejects: [Reject]) throws
    /// Makes the run's changes durable; returns what the load did.
    func commit(_ totals: RunTotals) throws -> LoadResult
    /// Abandons the run's changes, recording why.
    func fail(_ message: String, interrupted: Bool)
}

/// What the stages counted, handed to the sink at commit.
struct RunTotals: Sendable {
    var read = 0
    var rejected = 0
    /// Duplicates the dedupe stage dropped in memory (the loader counts the ones it resolves itself).
    var droppedDuplicates = 0
    var inputs: [InputIdentity] = []
    var timings: [String: Double] = [:]
    var warnings: [String] = []
}
