/// The outcome of one run, as printed at the end and written by `--summary-json`.
public struct RunSummary: Sendable {
    public enum Status: String, Sendable { case succeeded, failed, interrupted, unchanged }

    public var runID: Int64?
    public var pipeline: String
    public var source: String
    public var mode: String
    public var dryRun: Bool
    public var status: Status = .succeeded
    public var read = 0
    public var rejected = 0
    public var duplicates = 0
    /// What the load did (all 0 in a dry run).
    public var load = LoadResult(runID: 0)
    public var seconds = 0.0
    public var inputs: [InputFile] = []
    /// What was read: bytes, sha256, ETag (known once the input was read to its end).
    public var identities: [InputIdentity] = []
    public var stages: [StageMetrics] = []
    public var warnings: [String] = []
    /// Bad optional values per field and rule (`list_price: 37 not a price ("call agent")`).
    public var issues: [String] = []
    /// Reject reasons per field and rule.
    public var rejectReasons: [String] = []
    /// The first rejects, compiler-style.
    public var sampleRejects: [String] = []
    /// Control characters removed from values.
    public var removedCharacters = 0
    public var error: String?

    public init(pipeline: String, source: String, mode: String, dryRun: Bool) {
        self.pipeline = pipeline
        self.source = source
        self.mode = mode
        self.dryRun = dryRun
    }
}
