import Foundation

/// How http(s) inputs are requested: query parameters, auth, paging, timeouts, retries and TLS trust
/// (`source.http:`), and where their bodies are spooled.
package struct FetchSettings: Sendable {
    /// Credentials sent with every request.
    package enum Auth: Sendable, Hashable {
        case basic(user: String, password: String)
        case bearer(String)
        /// An API key sent as a request header.
        case apiKeyHeader(name: String, value: String)
        /// An API key sent as a query parameter.
        case apiKeyQuery(name: String, value: String)
        /// An OAuth2 client-credentials grant: a bearer token fetched from `tokenURL`, cached until it expires.
        case oauth2(OAuth2Settings)
    }

    /// Page-number or offset paging: each page is one request, until a page has no records or `maxPages`.
    package struct Paging: Sendable, Hashable {
        /// Which parameter moves from page to page, and by how much.
        package enum Mode: Sendable, Hashable {
            /// `param` = start, start + 1, ...
            case page(param: String)
            /// `param` = start, start + size, ...
            case offset(param: String)
        }

        package var mode: Mode
        /// The first page number (default 1) or offset (default 0).
        package var start: Int
        /// The page-size parameter, if the server takes one.
        package var sizeParam: String?
        package var size: Int
        package var maxPages: Int

        package init(mode: Mode, start: Int? = nil, sizeParam: String? = nil, size: Int = 500, maxPages: Int = 1000) {
            self.mode = mode
            if let start {
                self.start = start
            } else if case .page = mode {
                self.start = 1
            } else {
                self.start = 0
            }
            self.sizeParam = sizeParam
            self.size = size
            self.maxPages = maxPages
        }

        /// The query parameters of page `index` (0-based).
        func parameters(page index: Int) -> [(String, String)] {
            var result: [(String, String)] = []
            switch mode {
            case .page(let param): result.append((param, String(start + index)))
            case .offset(let param): result.append((param, String(start + index * size)))
            }
            if let sizeParam { result.append((sizeParam, String(size))) }
            return result
        }
    }

    /// Query parameters added to the URL, in order.
    package var params: [(String, String)]
    package var auth: Auth?
    package var paging: Paging?
    /// Seconds to wait for the response headers (connecting and TLS included).
    package var connectTimeout: Double
    /// Seconds without a byte of the body before the request fails.
    package var readTimeout: Double
    /// Requests made at most, the first included.
    package var attempts: Int
    /// The first retry waits about this many seconds, doubling after each failure (with jitter).
    package var backoff: Double
    /// The longest wait between two attempts, in seconds: it caps the backoff and a server's `Retry-After` alike.
    package var maxBackoff: Double
    /// A PEM file of CA certificates that verifies https servers in place of libcurl's default bundle
    /// (`source.http.ca_file`, relative to the pipeline file).
    package var caFile: String?
    /// The private directory (0700) where bodies are spooled before parsing: `<data_dir>/spool` from the caller,
    /// else `$TMPDIR/mlsfeed-spool-<uid>`.
    package var spoolDirectory: String
    /// Extra request headers (not secrets: those belong in `auth`).
    package var headers: [(String, String)]
    /// A RESO Web API (OData) source: its query, budgets, replication and deletes; nil for other inputs.
    package var webAPI: WebAPISettings?
    /// Told about each retry, e.g. `GET http://host/feed.xml: HTTP 500 Internal Server Error; retry 1 of 3 in 0.5 s`.
    package var log: (@Sendable (String) -> Void)?

    package init(params: [(String, String)] = [], auth: Auth? = nil, paging: Paging? = nil,
                connectTimeout: Double = 10, readTimeout: Double = 60, attempts: Int = 4, backoff: Double = 0.5,
                maxBackoff: Double = 30, caFile: String? = nil, spoolDirectory: String? = nil,
                headers: [(String, String)] = [], log: (@Sendable (String) -> Void)? = nil) {
        self.params = params
        self.auth = auth
        self.paging = paging
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
        self.attempts = attempts
        self.backoff = backoff
        self.maxBackoff = maxBackoff
        self.caFile = caFile
        self.spoolDirectory = spoolDirectory ?? SpoolDirectory.defaultPath
        self.headers = headers
        self.log = log
    }

    /// The secret values in these settings, masked by `redactor`.
    var secrets: [String] {
        switch auth {
        case .basic(let user, let password):
            let token = Data("\(user):\(password)".utf8).base64EncodedString()
            return [password, token]
        case .bearer(let token): return [token]
        case .apiKeyHeader(_, let value), .apiKeyQuery(_, let value): return [value]
        case .oauth2(let grant): return [grant.clientSecret]
        case nil: return []
        }
    }

    /// Masks this configuration's secrets (and any URL password or credential-like query value).
    package var redactor: Redactor { Redactor(secrets: secrets) }
}
