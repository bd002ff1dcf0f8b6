internal import CCurl

/// Owns one `CURLM` multi handle (freed in `deinit`, once), which drives one easy handle at a time on the calling
/// thread and keeps its connections for the next request.
final class CurlMulti {
    let handle: UnsafeMutableRawPointer

    init() throws(HTTPClientError) {
        guard CurlGlobal.ready else { throw .local("libcurl failed to initialize") }
        guard let handle = curl_multi_init() else { throw .local("curl_multi_init failed (out of memory?)") }
        self.handle = handle
    }

    deinit {
        curl_multi_cleanup(handle)
    }

    func add(_ easy: CurlEasy) throws(HTTPClientError) {
        try check(curl_multi_add_handle(handle, easy.handle), "curl_multi_add_handle")
    }

    func remove(_ easy: CurlEasy) {
        _ = curl_multi_remove_handle(handle, easy.handle)
    }

    /// Moves the transfer along as far as it can go without blocking; the transfer's result once it is over.
    func perform() throws(HTTPClientError) -> CURLcode? {
        var running: Int32 = 0
        try check(curl_multi_perform(handle, &running), "curl_multi_perform")
        var queued: Int32 = 0
        while let message = curl_multi_info_read(handle, &queued) {
            if message.pointee.msg == CURLMSG_DONE { return message.pointee.data.result }
        }
        return nil
    }

    /// Waits until the transfer's socket has something to do or `milliseconds` pass.
    func poll(milliseconds: Int) throws(HTTPClientError) {
        try check(curl_multi_poll(handle, nil, 0, Int32(clamping: milliseconds), nil), "curl_multi_poll")
    }

    private func check(_ code: CURLMcode, _ call: String) throws(HTTPClientError) {
        guard code == CURLM_OK else { throw .local("\(call): \(String(cString: curl_multi_strerror(code)))") }
    }
}
