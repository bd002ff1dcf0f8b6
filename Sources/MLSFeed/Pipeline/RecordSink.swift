/// Where the load stage sends what survived dedupe: the database, or a JSONL file in a dry run.
protocol RecordSink: AnyObject, Sendable {
    /// Takes one batch: records and rejects, each in feed order.
    func write(_ records: [NormalizedRecord], rejects: [Reject]) throws
    /// Makes the run's changes durable; returns what the load did.
    func commit(_ totals: RunTotals) throws -> LoadResult
    /// Abandons the run's changes, recording why.
    func fail(_ message: String, interrupted: Bool, totals: RunTotals)
}
