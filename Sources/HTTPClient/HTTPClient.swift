internal import CCurl
import Foundation

/// An HTTP(S) client on libcurl: one request at a time, driven on the calling thread, stoppable between polls.
///
/// The client keeps its connections between requests (keep-alive), so the pages of one input reuse one
/// connection. It is not thread-safe: one thread performs its requests. libcurl never raises signals here
/// (`CURLOPT_NOSIGNAL`); a transfer is stopped by `shouldStop`, which is polled at least every 50 ms.
package final class HTTPClient {
    /// The longest wait for socket activity before `shouldStop` and the timeouts are checked again.
    static let pollMilliseconds = 50
    /// libcurl's receive buffer: large reads keep the per-callback cost small on fast links.
    static let receiveBuffer = 256 << 10

    private let multi: CurlMulti
    private let easy: CurlEasy

    package init() throws(HTTPClientError) {
        multi = try CurlMulti()
        easy = try CurlEasy()
    }

    /// The redirect statuses the client follows (each with a `Location`).
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// Sends `request` and streams the final response's body into `sink`, following up to `request.maxRedirects`
    /// redirects that `RedirectDecision` allows (none from https to http, none to another origin while the request
    /// carries credentials). A 303, or a 301 or 302 answering a POST, is followed with a GET, as browsers do.
    ///
    /// A response with any status comes back (a 500 is an answer, not an error); a body that ended early comes
    /// back with `cutShort` set. Throws when there is no response: `.transient` (connection, DNS, no response
    /// headers within `connectTimeout`, no byte for `readTimeout`), `.tls`, `.cancelled` once `shouldStop`
    /// returns true, `.local` otherwise (a refused redirect, too many redirects among them).
    package func perform(_ request: HTTPRequest, into sink: HTTPBodySink, shouldStop: () -> Bool)
        throws(HTTPClientError) -> HTTPResponse {
        let credentialed = request.sendsCredentials
        var hop = request
        var redirects = 0
        while true {
            let (response, target) = try transfer(hop, into: sink, shouldStop: shouldStop)
            guard request.maxRedirects > 0, Self.redirectStatuses.contains(response.status), let target else {
                return response
            }
            redirects += 1
            guard redirects <= request.maxRedirects else {
                throw .local("too many redirects (Maximum (\(request.maxRedirects)) redirects followed)")
            }
            guard let from = HTTPOrigin(url: hop.url), let to = HTTPOrigin(url: target) else {
                throw .local("refused a redirect to a URL that is not http(s)")
            }
            if case .refuse(let reason) = RedirectDecision.decide(from: from, to: to, credentialed: credentialed) {
                throw .local(reason)
            }
            hop.url = target
            if response.status == 303 || (hop.method == .post && [301, 302].contains(response.status)) {
                hop.method = .get
                hop.body = nil
            }
        }
    }

    /// One request without following redirects: its response, and the absolute URL its `Location` names.
    private func transfer(_ request: HTTPRequest, into sink: HTTPBodySink, shouldStop: () -> Bool)
        throws(HTTPClientError) -> (HTTPResponse, String?) {
        if shouldStop() { throw .cancelled }
        let started = Monotonic.seconds()
        let state = TransferState(sink: sink, started: started, dropsRedirectBodies: request.maxRedirects > 0)
        let headers = try CurlHeaderList(request.headers)
        try headers.append("Expect:")
        easy.reset()
        defer { easy.reset() }
        try configure(request, headers: headers, state: state)
        try multi.add(easy)
        defer { multi.remove(easy) }
        let code = try withExtendedLifetime((state, headers)) { () throws(HTTPClientError) -> CURLcode in
            try drive(request, state: state, started: started, shouldStop: shouldStop)
        }
        return (try response(code, state: state), easy.info(string: CURLINFO_REDIRECT_URL))
    }

    /// Runs the transfer until libcurl reports it done, checking `shouldStop` and the timeouts between polls.
    private func drive(_ request: HTTPRequest, state: TransferState, started: Double, shouldStop: () -> Bool)
        throws(HTTPClientError) -> CURLcode {
        while true {
            if let code = try multi.perform() { return code }
            if shouldStop() { throw .cancelled }
            let now = Monotonic.seconds()
            if state.responseStarted == nil {
                if now - started >= request.connectTimeout {
                    throw .transient("no response within \(Self.seconds(request.connectTimeout)) (connect timeout)")
                }
            } else if now - state.lastActivity >= request.readTimeout {
                throw .transient("no data for \(Self.seconds(request.readTimeout)) (read timeout) after "
                    + "\(state.bodyBytes) bytes")
            }
            try multi.poll(milliseconds: Self.pollMilliseconds)
        }
    }

    /// The response of a finished transfer, or the error its result code means.
    private func response(_ code: CURLcode, state: TransferState) throws(HTTPClientError) -> HTTPResponse {
        let status = easy.info(CURLINFO_RESPONSE_CODE)
        let body = state.body
        if code == CURLE_OK {
            return HTTPResponse(status: status, headers: state.headers, bodyBytes: state.bodyBytes, body: body)
        }
        if code == CURLE_WRITE_ERROR, let failure = state.sinkFailure {
            throw state.sinkIsFull ? .sinkFull(failure) : .local(failure)
        }
        if status > 0 && CurlFailure.cutsBodyShort(code) {
            return HTTPResponse(status: status, headers: state.headers, bodyBytes: state.bodyBytes, body: body,
                                cutShort: easy.detail(code))
        }
        throw CurlFailure.error(code, detail: easy.detail(code), osError: Int32(easy.info(CURLINFO_OS_ERRNO)))
    }

    /// Sets every option of one request on the (freshly reset) easy handle.
    private func configure(_ request: HTTPRequest, headers: CurlHeaderList, state: TransferState)
        throws(HTTPClientError) {
        let lower = request.url.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            throw .local("not an http(s) URL")
        }
        try easy.set(CURLOPT_URL, request.url)
        try easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_NOSIGNAL, true)
        try easy.set(CURLOPT_TCP_KEEPALIVE, true)
        try easy.set(CURLOPT_BUFFERSIZE, Self.receiveBuffer)
        // Redirects are followed by `perform`, each checked first, never by libcurl.
        try easy.set(CURLOPT_FOLLOWLOCATION, false)
        if request.acceptsCompression { try easy.set(CURLOPT_ACCEPT_ENCODING, "") }
        if let caFile = request.caFile ?? Self.environmentCAFile() { try easy.set(CURLOPT_CAINFO, caFile) }
        try easy.set(CURLOPT_HTTPHEADER, list: headers.list)
        switch request.method {
        case .get:
            try easy.set(CURLOPT_HTTPGET, true)
        case .post:
            try easy.setPostBody(request.body ?? [])
        }
        let context = Unmanaged.passUnretained(state).toOpaque()
        try easy.set(CURLOPT_HEADERFUNCTION, function: { buffer, size, count, context in
            guard let buffer, let context else { return 0 }
            let state = Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue()
            state.header(UnsafeRawBufferPointer(start: buffer, count: size * count))
            return size * count
        })
        try easy.set(CURLOPT_HEADERDATA, pointer: context)
        try easy.set(CURLOPT_WRITEFUNCTION, function: { buffer, size, count, context in
            guard let context else { return 0 }
            let state = Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue()
            guard let buffer else { return 0 }
            return state.body(UnsafeRawBufferPointer(start: buffer, count: size * count)) ? size * count : 0
        })
        try easy.set(CURLOPT_WRITEDATA, pointer: context)
    }

    /// The CA file named by `CURL_CA_BUNDLE` or `SSL_CERT_FILE` (the curl tool's and OpenSSL's variables).
    private static func environmentCAFile() -> String? {
        let environment = ProcessInfo.processInfo.environment
        for name in ["CURL_CA_BUNDLE", "SSL_CERT_FILE"] {
            if let value = environment[name], !value.isEmpty { return value }
        }
        return nil
    }

    /// `0.5 s`, `10 s`.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? "\(Int(value)) s" : "\(value) s"
    }
}
