/// Why a request got no response (a response with an error status is not an error here).
package enum HTTPClientError: Error, Sendable, Equatable {
    /// Worth another attempt: refused, reset, DNS failure, timeouts, the server closing without an answer.
    case transient(String)
    /// The TLS connection was refused for its certificate or CA file, e.g. `TLS: the server certificate is not
    /// trusted (SSL certificate problem: self-signed certificate)`. Not worth retrying.
    case tls(String)
    /// `shouldStop` said so.
    case cancelled
    /// The file sink could not take the body: its device is full or the disk quota used up (the system's words,
    /// `No space left on device`). Not worth retrying until space is freed.
    case sinkFull(String)
    /// Anything else: a malformed URL or header, an unsupported scheme, too many redirects, a sink that cannot
    /// take the body. Not worth retrying.
    case local(String)

    /// The message, as printed after the request.
    package var message: String {
        switch self {
        case .transient(let text), .tls(let text), .local(let text): text
        case .sinkFull(let text): "cannot write the spool file: \(text)"
        case .cancelled: "cancelled"
        }
    }
}
