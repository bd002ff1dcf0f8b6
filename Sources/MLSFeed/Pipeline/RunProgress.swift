/// How far the run in hand has come, for a progress display: bytes of the total, records, pages, time.
public struct RunProgress: Sendable, Equatable {
    /// Bytes read from the inputs so far.
    public var bytes: Int64
    /// The inputs' total size, when known (local files); nil for stdin and HTTP.
    public var totalBytes: Int64?
    public var records: Int
    public var rejected: Int
    /// Pages (documents) read to their end; for a paged HTTP input, its pages.
    public var documents: Int
    /// Seconds since the run began.
    public var seconds: Double

    public init(bytes: Int64, totalBytes: Int64?, records: Int, rejected: Int, documents: Int, seconds: Double) {
        self.bytes = bytes
        self.totalBytes = totalBytes
        self.records = records
        self.rejected = rejected
        self.documents = documents
        self.seconds = seconds
    }
}
