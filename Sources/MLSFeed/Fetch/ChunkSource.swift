/// One input's bytes as a stream of chunks, with its identity known once fully read.
package protocol ChunkSource: AnyObject {
    /// Where the bytes come from, safe to print (credentials redacted).
    var location: String { get }
    /// The next chunk (`Fetcher.chunkSize`, 256 KiB), or nil at the end. Throws `FetchError` with a clear message.
    func next() throws -> [UInt8]?
    /// After the last chunk: bytes read (the compressed bytes for gzip), sha256 hex of the raw input, and for HTTP
    /// the ETag and Last-Modified.
    var identity: InputIdentity { get }
    /// The HTTP Last-Modified header (also in `identity`).
    var lastModified: String? { get }
}

extension ChunkSource {
    package var lastModified: String? { identity.lastModified }
}
