/// One stage of a run: batches in, batches out, in order. A stage sees the rest of the run only through what it was
/// built with (its settings, the run's counters, the events it may emit); the runner connects stages with bounded
/// queues (`StageDriver`) and never looks inside one.
protocol Stage {
    /// What the stage takes from the queue before it.
    associatedtype Input: StageBatch & Sendable
    /// What the stage hands to the queue after it.
    associatedtype Output: StageBatch & Sendable

    /// Its name in `stages:` settings, the summary's stage table and events.
    static var name: String { get }

    /// The batches one input batch yields: none, one or more, in order. The batch is the stage's own: it may move
    /// the records out instead of copying them (`MovingIterator`).
    mutating func process(_ batch: consuming Input) throws -> [Output]

    /// The batches held back until the input ended.
    mutating func finish() throws -> [Output]

    /// Called after the output batch `sequence` was handed on (test pauses hook in here).
    mutating func didPush(_ sequence: Int) throws

    /// `process`, its busy time and counts recorded under the stage's name (a `StageChain` records each part's).
    mutating func processRecorded(_ batch: consuming Input, control: RunControl) throws -> [Output]

    /// `finish`, recorded as `processRecorded` records.
    mutating func finishRecorded(control: RunControl) throws -> [Output]
}

extension Stage {
    mutating func finish() throws -> [Output] { [] }

    mutating func didPush(_ sequence: Int) throws {}

    mutating func processRecorded(_ batch: consuming Input, control: RunControl) throws -> [Output] {
        let started = monotonicSeconds()
        let itemsIn = batch.itemCount
        let batches = try process(consume batch)
        control.record(stage: Self.name, itemsIn: itemsIn, itemsOut: batches.reduce(0) { $0 + $1.itemCount },
                       seconds: monotonicSeconds() - started)
        return batches
    }

    mutating func finishRecorded(control: RunControl) throws -> [Output] {
        let started = monotonicSeconds()
        let batches = try finish()
        control.record(stage: Self.name, batchesIn: 0, itemsIn: 0, itemsOut: batches.reduce(0) { $0 + $1.itemCount },
                       seconds: monotonicSeconds() - started)
        return batches
    }
}

/// A batch that flows between stages: how many items it carries, for the stage metrics.
protocol StageBatch {
    /// The items counted as the stage's `in` or `out`.
    var itemCount: Int { get }
}

extension Array: StageBatch {
    var itemCount: Int { count }
}
