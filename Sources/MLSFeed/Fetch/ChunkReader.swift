/// Reads an input in fixed-size chunks so a feed never sits whole in memory (gzip and URLs through `Fetcher`).
final class ChunkReader {
    private let source: any ChunkSource
    private(set) var bytesRead: Int64 = 0

    init(_ input: InputFile, settings: FetchSettings = FetchSettings()) throws {
        guard case .source(let source) = try Fetcher.open(input, settings: settings, conditional: nil) else {
            throw FetchError("\(input.displayName): unexpected 304 Not Modified without a conditional request")
        }
        self.source = source
    }

    /// The next chunk, or nil at end of input.
    func next() throws -> [UInt8]? {
        let bytes = try source.next()
        bytesRead += Int64(bytes?.count ?? 0)
        return bytes
    }

    /// The input's identity, complete once `next()` returned nil.
    var identity: InputIdentity { source.identity }
}
