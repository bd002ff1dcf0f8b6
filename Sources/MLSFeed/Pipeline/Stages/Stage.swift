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

    /// The batches one input batch yields: none, one or more, in order.
    mutating func process(_ batch: Input) throws -> [Output]

    /// The batches held back until the input ended.
    mutating func finish() throws -> [Output]

    /// Called after the output batch `sequence` was handed on (test pauses hook in here).
    mutating func didPush(_ sequence: Int) throws
}

extension Stage {
    mutating func finish() throws -> [Output] { [] }

    mutating func didPush(_ sequence: Int) throws {}
}

/// A batch that flows between stages: how many items it carries, for the stage metrics.
protocol StageBatch {
    /// The items counted as the stage's `in` or `out`.
    var itemCount: Int { get }
}

extension Array: StageBatch {
    var itemCount: Int { count }
}
