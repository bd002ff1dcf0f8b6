import HTTPClient
import Digest

/// The body of a successful HTTP response, read back from its spool file, hashed as it passes.
final class HTTPChunkSource: ChunkSource {
    /// The URL, credentials redacted.
    let location: String
    /// Requests made, retries included.
    let attempts: Int
    let etag: String?
    let lastModified: String?
    private let file: SpoolFile
    private let chunkSize: Int
    private let redactor: Redactor
    private var hasher = SHA256()
    private var bytesRead: Int64 = 0
    private var digest: String?

    /// `file`: the spooled body, rewound to its start.
    init(file: SpoolFile, response: HTTPResponse, location: String, attempts: Int, redactor: Redactor,
         chunkSize: Int = Fetcher.chunkSize) {
        self.file = file
        self.location = location
        self.attempts = attempts
        self.redactor = redactor
        self.chunkSize = chunkSize
        etag = response.headers["ETag"]
        lastModified = response.headers["Last-Modified"]
    }

    func next() throws -> [UInt8]? {
        guard digest == nil else { return nil }
        let bytes: [UInt8]?
        do {
            bytes = try file.read(max: chunkSize)
        } catch let error as FetchError {
            throw FetchError(redactor.redact("GET \(location): \(error.message)"))
        }
        guard let bytes else {
            digest = hasher.finalizeHex()
            return nil
        }
        hasher.update(bytes)
        bytesRead += Int64(bytes.count)
        return bytes
    }

    var identity: InputIdentity {
        InputIdentity(location: location, bytes: bytesRead, sha256: digest, etag: etag, lastModified: lastModified)
    }
}
