/// Per-stage runtime settings: workers, batch size and the depth of the queue feeding the stage.
public struct StageSettings: Sendable, Hashable {
    public var workers = 1
    public var batchSize = 1000
    public var queueDepth = 4

    public init(workers: Int = 1, batchSize: Int = 1000, queueDepth: Int = 4) {
        self.workers = workers
        self.batchSize = batchSize
        self.queueDepth = queueDepth
    }

    /// The pipeline's stages, in order.
    public static let stageNames = ["fetch", "parse", "normalize", "validate", "dedupe", "load"]
    /// Stages that keep state across batches run one worker.
    static let singleWorker: Set<String> = ["fetch", "parse", "dedupe", "load"]
}
