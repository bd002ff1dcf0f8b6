/// How a full or incremental load treats listings the input does not carry.
public enum LoadMode: String, Sendable, Hashable {
    /// Upsert only.
    case incremental
    /// A nightly dump: listings of the source not in it are withdrawn (never deleted).
    case full
}

/// What one load is: which pipeline and source, the mode, and the withdraw guard.
public struct LoadOptions: Sendable, Hashable {
    public var source: String
    public var pipeline: String
    public var mode: LoadMode
    /// A full dump holding fewer than this share of the source's active listings fails unless `force`.
    public var withdrawGuard: Double
    public var force: Bool

    public init(source: String, pipeline: String, mode: LoadMode, withdrawGuard: Double = 0.5, force: Bool = false) {
        self.source = source
        self.pipeline = pipeline
        self.mode = mode
        self.withdrawGuard = withdrawGuard
        self.force = force
    }
}

/// The identity of one input, recorded in the run ledger.
public struct InputIdentity: Sendable, Hashable {
    public var location: String
    public var bytes: Int64?
    public var sha256: String?
    public var etag: String?

    public init(location: String, bytes: Int64? = nil, sha256: String? = nil, etag: String? = nil) {
        self.location = location
        self.bytes = bytes
        self.sha256 = sha256
        self.etag = etag
    }
}

/// What a committed load did.
public struct LoadResult: Sendable, Hashable {
    public var runID: Int64
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0
    public var stale = 0
    public var withdrawn = 0
    public var duplicates = 0

    public init(runID: Int64) {
        self.runID = runID
    }
}
