import Foundation

/// One HTTP request for `HTTPClient.perform`: what to send and how long to wait.
package struct HTTPRequest: Sendable {
    /// The request methods the client sends.
    package enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
    }

    package var method: Method
    /// An `http://` or `https://` URL, query included (other schemes are refused, redirects included).
    package var url: String
    /// Request headers in order; a name may repeat. Values must not contain CR or LF.
    package var headers: [(name: String, value: String)]
    /// The body of a POST (e.g. an `application/x-www-form-urlencoded` form); ignored for GET.
    package var body: [UInt8]?
    /// Seconds to wait for the first byte of the response headers (connecting and TLS included).
    package var connectTimeout: Double
    /// Seconds without a byte of the response before the transfer fails.
    package var readTimeout: Double
    /// A PEM file of CA certificates to verify the server with, instead of libcurl's default bundle (nil: the
    /// default, or the file `CURL_CA_BUNDLE` / `SSL_CERT_FILE` names when set).
    package var caFile: String?
    /// Redirects followed at most (0: none; a 3xx is then the response). The client follows each one itself and
    /// checks it first (`RedirectDecision`): never from https to http, never to another origin while the request
    /// carries credentials (`sendsCredentials`).
    package var maxRedirects: Int
    /// Set when the request carries a credential its headers do not show by name, such as an API key in a custom
    /// header or in the query: its redirects then stay within its origin.
    package var carriesCredentials: Bool
    /// Asks for a compressed body (`Accept-Encoding`) and decodes it, so the sink gets the decoded bytes.
    package var acceptsCompression: Bool

    package init(method: Method = .get, url: String, headers: [(name: String, value: String)] = [],
                 body: [UInt8]? = nil, connectTimeout: Double = 10, readTimeout: Double = 60, caFile: String? = nil,
                 maxRedirects: Int = 5, acceptsCompression: Bool = true, carriesCredentials: Bool = false) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
        self.caFile = caFile
        self.maxRedirects = maxRedirects
        self.acceptsCompression = acceptsCompression
        self.carriesCredentials = carriesCredentials
    }

    /// Headers that are credentials whatever their value.
    private static let credentialHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie"]

    /// Whether the request carries credentials: `carriesCredentials`, an `Authorization`, `Proxy-Authorization` or
    /// `Cookie` header, or a user in the URL (which libcurl would send as basic auth).
    package var sendsCredentials: Bool {
        carriesCredentials || headers.contains { Self.credentialHeaders.contains($0.name.lowercased()) }
            || URLComponents(string: url)?.user != nil
    }
}
