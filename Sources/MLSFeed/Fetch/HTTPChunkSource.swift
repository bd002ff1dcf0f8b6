import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The body of a successful HTTP response, read back from its spool file (see `HTTPTransfer`), hashed as it passes.
final class HTTPChunkSource: ChunkSource {
    /// The URL, credentials redacted.
    let location: String
    /// Requests made, retries included.
    let attempts: Int
    let etag: String?
    let lastModified: String?
    private let transfer: HTTPTransfer
    private let chunkSize: Int
    private let redactor: Redactor
    private var hasher = SHA256()
    private var bytesRead: Int64 = 0
    private var digest: String?

    init(transfer: HTTPTransfer, response: HTTPURLResponse, location: String, attempts: Int, redactor: Redactor,
         chunkSize: Int = Fetcher.chunkSize) {
        self.transfer = transfer
        self.location = location
        self.attempts = attempts
        self.redactor = redactor
        self.chunkSize = chunkSize
        etag = response.value(forHTTPHeaderField: "ETag")
        lastModified = response.value(forHTTPHeaderField: "Last-Modified")
    }

    func next() throws -> [UInt8]? {
        guard digest == nil else { return nil }
        let bytes: [UInt8]?
        do {
            bytes = try transfer.read(max: chunkSize)
        } catch {
            let message: String
            switch error {
            case .transient(let text), .local(let text): message = text
            }
            throw FetchError(redactor.redact("GET \(location): \(message)"))
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
        InputIdentity(location: location, bytes: bytesRead, sha256: digest, etag: etag)
    }
}
