/// Validators from the last successful run, sent as a conditional GET (`If-None-Match`, `If-Modified-Since`).
public struct Conditional: Sendable, Hashable {
    public var etag: String?
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }
}
