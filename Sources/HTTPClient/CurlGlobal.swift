internal import CCurl

/// libcurl's process-wide setup, run once before the first handle (Swift runs a global's initializer exactly once,
/// thread-safely).
enum CurlGlobal {
    /// Whether `curl_global_init` succeeded.
    static let ready: Bool = curl_global_init(mlsfeed_curl_global_default()) == CURLE_OK
}
