internal import CCurl
import Foundation

/// Sorts a libcurl result into the client's errors, with libcurl's own detail in the text.
enum CurlFailure {
    /// `detail`: libcurl's error buffer; `osError`: the errno of the failed connect (0: none).
    static func error(_ code: CURLcode, detail: String, osError: Int32) -> HTTPClientError {
        switch code {
        case CURLE_COULDNT_CONNECT:
            if osError == ECONNREFUSED { return .transient("cannot connect to the host (connection refused)") }
            return .transient("cannot connect to the host (\(detail))")
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .transient("cannot find the host (\(detail))")
        case CURLE_OPERATION_TIMEDOUT:
            return .transient("timed out (\(detail))")
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_HTTP3,
             CURLE_QUIC_CONNECT_ERROR:
            return .transient("the connection was lost (\(detail))")
        case CURLE_GOT_NOTHING:
            return .transient("the server closed the connection without answering")
        case CURLE_SSL_CONNECT_ERROR:
            return .transient("TLS handshake failed (\(detail))")
        case CURLE_PEER_FAILED_VERIFICATION:
            return .tls("TLS: the server certificate is not trusted (\(detail))")
        case CURLE_SSL_CACERT_BADFILE:
            return .tls("TLS: cannot use the CA file (\(detail))")
        case CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ENGINE_NOTFOUND,
             CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED, CURLE_USE_SSL_FAILED:
            return .tls("TLS: \(detail)")
        case CURLE_TOO_MANY_REDIRECTS:
            return .local("too many redirects (\(detail))")
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return .local("not a usable http(s) URL (\(detail))")
        default:
            return .local(detail)
        }
    }

    /// Whether `code`, after the response headers arrived, means the body ended early.
    static func cutsBodyShort(_ code: CURLcode) -> Bool {
        [CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_HTTP3].contains(code)
    }
}
