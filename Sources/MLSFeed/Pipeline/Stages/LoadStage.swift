/// The load stage: writes records and rejects to the sink (COPY into staging, or JSON lines in a dry run) in
/// batches of `stages.load.batch_size`.
struct LoadStage: Stage {
    static let name = "load"

    let sink: RecordSink
    let batchSize: Int
    private var pending: [NormalizedRecord] = []
    private var pendingRejects: [Reject] = []

    init(sink: RecordSink, batchSize: Int) {
        self.sink = sink
        self.batchSize = batchSize
        pending.reserveCapacity(batchSize)
    }

    mutating func process(_ batch: consuming DedupedBatch) throws -> [Written] {
        var records: [NormalizedRecord] = []
        swap(&records, &batch.records)
        pending.append(moving: consume records)
        pendingRejects += batch.rejects
        return pending.count + pendingRejects.count >= batchSize ? try flush() : []
    }

    mutating func finish() throws -> [Written] {
        try flush()
    }

    private mutating func flush() throws -> [Written] {
        guard !pending.isEmpty || !pendingRejects.isEmpty else { return [] }
        try sink.write(pending, rejects: pendingRejects)
        defer {
            pending.removeAll(keepingCapacity: true)
            pendingRejects.removeAll(keepingCapacity: true)
        }
        return [Written(itemCount: pending.count)]
    }
}

/// What the load stage wrote to the sink: the end of the line (no stage takes it).
struct Written: StageBatch, Sendable {
    /// The records written.
    var itemCount: Int
}
