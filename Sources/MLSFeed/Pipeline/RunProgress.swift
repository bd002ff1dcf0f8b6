/// How far the run in hand has come, for a progress display: bytes of the total, records, pages, time.
package struct RunProgress: Sendable, Equatable {
    /// Bytes read from the inputs so far.
    package var bytes: Int64
    /// The inputs' total size, when known (local files); nil for stdin and HTTP.
    package var totalBytes: Int64?
    package var records: Int
    package var rejected: Int
    /// Pages (documents) read to their end; for a paged HTTP input, its pages.
    package var documents: Int
    /// Seconds since the run began.
    package var seconds: Double

    package init(bytes: Int64, totalBytes: Int64?, records: Int, rejected: Int, documents: Int, seconds: Double) {
        self.bytes = bytes
        self.totalBytes = totalBytes
        self.records = records
        self.rejected = rejected
        self.documents = documents
        self.seconds = seconds
    }
}
