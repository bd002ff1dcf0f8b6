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
