import Foundation

/// Where `HTTPClient.perform` puts the response body as it arrives.
package enum HTTPBodySink {
    /// Written to this open file at its current offset (a spool file); the caller keeps owning the handle.
    case file(FileHandle)
    /// Kept in memory (`HTTPResponse.body`) for small answers such as a token's JSON; a longer body fails the
    /// request with `.local`.
    case memory(limit: Int)
}
