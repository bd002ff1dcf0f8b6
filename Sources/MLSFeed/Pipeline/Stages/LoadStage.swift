/// The load stage: writes records and rejects to the sink (COPY into staging, or JSON lines in a dry run) in
/// batches of `stages.load.batch_size` rows.
///
/// A recognised copy (`NormalizedRecord.isRecognisedKey`) is no row: the sink only notes its key. A batch is
/// written when its rows (records that are not recognised copies, and rejects) reach the batch size, or when it
/// holds `keysPerBatch` times that many records in all. A next night's delta is 97% recognised copies: flushing
/// every 1,000 records sent about 25 rows and 10 rejects a COPY (a 100k delta's 168 COPYs took the server 190 ms;
/// 27 now take 153 ms). A recognised copy held is small (its key and timestamp): holding 8 batches' worth measured
/// 4-5 MiB more peak RSS in a 1M delta.
struct LoadStage: Stage {
    static let name = "load"
    /// How many records a batch may hold, as a multiple of the batch size, while most of them are recognised copies.
    static let keysPerBatch = 8

    let sink: RecordSink
    let batchSize: Int
    private var pending: [NormalizedRecord] = []
    private var pendingRejects: [Reject] = []
    /// The recognised copies among `pending`.
    private var pendingKeys = 0

    init(sink: RecordSink, batchSize: Int) {
        self.sink = sink
        self.batchSize = batchSize
        pending.reserveCapacity(batchSize)
    }

    mutating func process(_ batch: consuming DedupedBatch) throws -> [Written] {
        var records: [NormalizedRecord] = []
        swap(&records, &batch.records)
        pendingKeys += records.withUnsafeBufferPointer { records in
            records.indices.reduce(0) { $0 + (records[$1].isRecognisedKey ? 1 : 0) }
        }
        pending.append(moving: consume records)
        pendingRejects += batch.rejects
        let rows = pending.count - pendingKeys + pendingRejects.count
        let full = rows >= batchSize || pending.count + pendingRejects.count >= batchSize * Self.keysPerBatch
        return full ? try flush() : []
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
            pendingKeys = 0
        }
        return [Written(itemCount: pending.count)]
    }
}

/// What the load stage wrote to the sink: the end of the line (no stage takes it).
struct Written: StageBatch, Sendable {
    /// The records written.
    var itemCount: Int
}
