/// A source whose first chunk was already read (to sniff it) and is handed out again first.
final class ReplayChunkSource: ChunkSource {
    private let raw: any ChunkSource
    private var first: [UInt8]?

    init(raw: any ChunkSource, first: [UInt8]) {
        self.raw = raw
        self.first = first.isEmpty ? nil : first
    }

    var location: String { raw.location }
    var identity: InputIdentity { raw.identity }
    var lastModified: String? { raw.lastModified }

    func next() throws -> [UInt8]? {
        if let first {
            self.first = nil
            return first
        }
        return try raw.next()
    }
}
