/// The identity of one input, recorded in the run ledger.
public struct InputIdentity: Sendable, Hashable {
    /// The ledger key: a path, or the full request URL with secrets masked (`Fetcher.ledgerLocation`).
    public var location: String
    public var bytes: Int64?
    public var sha256: String?
    public var etag: String?
    /// The HTTP `Last-Modified` header, sent back as `If-Modified-Since`.
    public var lastModified: String?

    public init(location: String, bytes: Int64? = nil, sha256: String? = nil, etag: String? = nil,
                lastModified: String? = nil) {
        self.location = location
        self.bytes = bytes
        self.sha256 = sha256
        self.etag = etag
        self.lastModified = lastModified
    }
}
