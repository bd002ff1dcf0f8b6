/// What a server answered: status, headers and how much of the body reached the sink.
package struct HTTPResponse: Sendable {
    /// The status code of the final response (after redirects).
    package var status: Int
    /// The final response's header fields.
    package var headers: HTTPHeaders
    /// Body bytes handed to the sink (after decoding, when the body was compressed).
    package var bodyBytes: Int64
    /// The body, for a `.memory` sink (empty for a file sink).
    package var body: [UInt8]
    /// Why the body ended early (the connection closed or broke before `Content-Length` bytes or the end of the
    /// chunked body), in libcurl's words; nil for a complete body.
    package var cutShort: String?

    package init(status: Int, headers: HTTPHeaders, bodyBytes: Int64, body: [UInt8] = [], cutShort: String? = nil) {
        self.status = status
        self.headers = headers
        self.bodyBytes = bodyBytes
        self.body = body
        self.cutShort = cutShort
    }

    /// True when the body ended before its announced end.
    package var isCutShort: Bool { cutShort != nil }

    /// The announced body length (`Content-Length`), when the body is sent as-is (no `Content-Encoding`).
    package var contentLength: Int64? {
        let encoding = headers["Content-Encoding"]?.lowercased() ?? "identity"
        guard encoding == "identity", let text = headers["Content-Length"] else { return nil }
        return Int64(text)
    }
}
