/// The identity of one input, recorded in the run ledger.
package struct InputIdentity: Sendable, Hashable {
    /// The ledger key: a path, or the full request URL with secrets masked (`Fetcher.ledgerLocation`).
    package var location: String
    package var bytes: Int64?
    package var sha256: String?
    package var etag: String?
    /// The HTTP `Last-Modified` header, sent back as `If-Modified-Since`.
    package var lastModified: String?

    package init(location: String, bytes: Int64? = nil, sha256: String? = nil, etag: String? = nil,
                lastModified: String? = nil) {
        self.location = location
        self.bytes = bytes
        self.sha256 = sha256
        self.etag = etag
        self.lastModified = lastModified
    }
}
