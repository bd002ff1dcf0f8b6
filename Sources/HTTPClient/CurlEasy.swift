internal import CCurl

/// Owns one `CURL` easy handle and its error buffer; both are freed in `deinit`, once.
final class CurlEasy {
    let handle: UnsafeMutableRawPointer
    /// libcurl writes the last failure's detail here (`CURLOPT_ERRORBUFFER`).
    private let errorBuffer: UnsafeMutablePointer<CChar>

    init() throws(HTTPClientError) {
        guard CurlGlobal.ready else { throw .local("libcurl failed to initialize") }
        guard let handle = curl_easy_init() else { throw .local("curl_easy_init failed (out of memory?)") }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Forgets every option of the last transfer (connections and caches stay) and points the error buffer at
    /// this handle's, emptied.
    func reset() {
        curl_easy_reset(handle)
        errorBuffer[0] = 0
        _ = mlsfeed_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
    }

    /// The last failure's detail: libcurl's error buffer, or the code's generic text when the buffer is empty.
    func detail(_ code: CURLcode) -> String {
        let text = String(cString: errorBuffer).trimmingTrailingNewlines()
        return text.isEmpty ? String(cString: curl_easy_strerror(code)) : text
    }

    func set(_ option: CURLoption, _ value: Int) throws(HTTPClientError) {
        try check(mlsfeed_curl_setopt_long(handle, option, value), option)
    }

    func set(_ option: CURLoption, _ value: Bool) throws(HTTPClientError) {
        try set(option, value ? 1 : 0)
    }

    func set(_ option: CURLoption, int64 value: Int64) throws(HTTPClientError) {
        try check(mlsfeed_curl_setopt_off_t(handle, option, curl_off_t(value)), option)
    }

    /// A string option; libcurl copies it.
    func set(_ option: CURLoption, _ value: String) throws(HTTPClientError) {
        try check(value.withCString { mlsfeed_curl_setopt_string(handle, option, $0) }, option)
    }

    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) throws(HTTPClientError) {
        try check(mlsfeed_curl_setopt_pointer(handle, option, pointer), option)
    }

    func set(_ option: CURLoption, list: UnsafeMutablePointer<curl_slist>?) throws(HTTPClientError) {
        try check(mlsfeed_curl_setopt_slist(handle, option, list), option)
    }

    func set(_ option: CURLoption, function: curl_write_callback) throws(HTTPClientError) {
        try check(mlsfeed_curl_setopt_write_function(handle, option, function), option)
    }

    /// The body of a POST; libcurl copies it (`CURLOPT_COPYPOSTFIELDS`), so nothing has to outlive this call.
    func setPostBody(_ body: [UInt8]) throws(HTTPClientError) {
        try set(CURLOPT_POSTFIELDSIZE_LARGE, int64: Int64(body.count))
        // A non-null pointer even for an empty body: a null one would make libcurl read the body from stdin.
        let bytes = body.isEmpty ? [0] : body
        let code = bytes.withUnsafeBytes { buffer in
            mlsfeed_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS,
                                        UnsafeMutableRawPointer(mutating: buffer.baseAddress))
        }
        try check(code, CURLOPT_COPYPOSTFIELDS)
    }

    /// A long-valued `CURLINFO`, 0 when libcurl has none.
    func info(_ info: CURLINFO) -> Int {
        var value = 0
        return mlsfeed_curl_getinfo_long(handle, info, &value) == CURLE_OK ? value : 0
    }

    /// A string-valued `CURLINFO` (copied), nil when libcurl has none.
    func info(string info: CURLINFO) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard mlsfeed_curl_getinfo_string(handle, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws(HTTPClientError) {
        guard code == CURLE_OK else {
            throw .local("libcurl refused option \(option.rawValue): \(String(cString: curl_easy_strerror(code)))")
        }
    }
}

extension String {
    /// The text without trailing CR and LF.
    func trimmingTrailingNewlines() -> String {
        var text = self
        while text.last == "\n" || text.last == "\r" { text.removeLast() }
        return text
    }
}
