/// Per-stage runtime settings: workers, batch size and the depth of the queue feeding the stage.
package struct StageSettings: Sendable, Hashable {
    package var workers = 1
    /// Records per batch: small batches (a few hundred) stay in cache and keep memory flat (measured in bench/).
    package var batchSize = 200
    /// Batches waiting in front of the stage: enough to absorb jitter, few enough to bound memory.
    package var queueDepth = 2

    package init(workers: Int = 1, batchSize: Int = 200, queueDepth: Int = 2) {
        self.workers = workers
        self.batchSize = batchSize
        self.queueDepth = queueDepth
    }

    /// The pipeline's stages, in order.
    package static let stageNames = ["fetch", "parse", "normalize", "validate", "dedupe", "load"]
    /// Stages that keep state across batches run one worker.
    static let singleWorker: Set<String> = ["fetch", "parse", "dedupe", "load"]

    /// The settings' bounds: every combination stays within memory a feed can need (a batch of the biggest
    /// records times the deepest queue), so no setting can exhaust memory or crash the process.
    static let workerCounts = 1...64
    static let batchSizes = 1...100_000
    static let queueDepths = 1...64
    static let dedupeWindows = 1...10_000_000
    static let dedupeHolds = 0...1_000_000
}
