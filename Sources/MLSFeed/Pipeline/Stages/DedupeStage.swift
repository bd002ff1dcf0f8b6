/// The dedupe stage: one record per MLS number within the window, the newest winning; the run's reject counters and
/// samples are kept here, where every reject has passed.
struct DedupeStage: Stage {
    static let name = "dedupe"

    var deduper: Deduper
    let state: Totals
    let sampleLimit: Int
    /// A dry run has no loader to count the superseded copies it discards, so the stage counts them.
    let dryRun: Bool

    mutating func process(_ batch: consuming ValidatedBatch) throws -> [DedupedBatch] {
        state.addValidated(batch, sampleLimit: sampleLimit)
        // Taken out of the batch, so the deduper holds the records' only reference and moves them.
        var records: [NormalizedRecord] = []
        swap(&records, &batch.records)
        // The window mutates alone: `split(deduper.process(...))` would copy `self` (and so share the window's
        // storage) before the call, and every batch would then copy the whole window on write.
        let items = deduper.process(records: consume records, rejects: batch.rejects)
        return [split(consume items)]
    }

    mutating func finish() throws -> [DedupedBatch] {
        let items = deduper.finish()
        return [split(consume items)]
    }

    private func split(_ items: consuming [Deduper.Item]) -> DedupedBatch {
        var batch = DedupedBatch(records: [], rejects: [])
        for item in MovingIterator(consume items) {
            switch consume item {
            case .record(let record): batch.records.append(record)
            case .reject(let reject): batch.rejects.append(reject)
            }
        }
        state.setWindowDuplicates(deduper.droppedListings + (dryRun ? deduper.supersededListings : 0))
        return batch
    }
}

/// What dedupe hands to load: the records to write and the rejects to keep.
struct DedupedBatch: StageBatch, Sendable {
    var records: [NormalizedRecord]
    var rejects: [Reject]

    var itemCount: Int { records.count }
}
