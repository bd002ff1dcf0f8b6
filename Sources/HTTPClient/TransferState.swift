import Foundation

/// What one transfer's libcurl callbacks record (headers, body bytes, activity), on the thread driving it.
final class TransferState {
    private let sink: HTTPBodySink
    private let descriptor: Int32
    /// The current response's header fields (a redirect or `100 Continue` starts them again).
    private(set) var headers = HTTPHeaders()
    /// The current response's status, from its status line (0 before one arrived).
    private(set) var status = 0
    /// Whether the body of a redirect (a followed status with a `Location`) is dropped, not handed to the sink:
    /// the client follows the redirect itself, and the sink gets the final response's body only.
    private let dropsRedirectBodies: Bool
    private(set) var body: [UInt8] = []
    private(set) var bodyBytes: Int64 = 0
    /// When the first header byte arrived (monotonic seconds), nil before.
    private(set) var responseStarted: Double?
    /// When the last byte of the response arrived (monotonic seconds).
    private(set) var lastActivity: Double
    /// Why the sink refused the body (the transfer then ends with `CURLE_WRITE_ERROR`).
    private(set) var sinkFailure: String?
    /// Set with `sinkFailure` when the file sink's device is full (`ENOSPC`, `EDQUOT`).
    private(set) var sinkIsFull = false

    init(sink: HTTPBodySink, started: Double, dropsRedirectBodies: Bool) {
        self.sink = sink
        self.dropsRedirectBodies = dropsRedirectBodies
        if case .file(let handle) = sink {
            descriptor = handle.fileDescriptor
        } else {
            descriptor = -1
        }
        lastActivity = started
    }

    /// One header line from libcurl (status lines included).
    func header(_ bytes: UnsafeRawBufferPointer) {
        let now = Monotonic.seconds()
        if responseStarted == nil { responseStarted = now }
        lastActivity = now
        let line = String(decoding: bytes, as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            headers = HTTPHeaders()
            status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        } else {
            headers.append(line: line)
        }
    }

    /// A piece of the body; false when the sink cannot take it.
    func body(_ bytes: UnsafeRawBufferPointer) -> Bool {
        lastActivity = Monotonic.seconds()
        if dropsRedirectBodies && HTTPClient.redirectStatuses.contains(status) && headers["Location"] != nil {
            return true
        }
        switch sink {
        case .file:
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    let code = errno
                    if code == EINTR { continue }
                    sinkIsFull = code == ENOSPC || code == EDQUOT
                    sinkFailure = sinkIsFull ? String(cString: strerror(code))
                        : "cannot write the spool file: \(String(cString: strerror(code)))"
                    return false
                }
                offset += written
            }
        case .memory(let limit):
            guard body.count + bytes.count <= limit else {
                sinkFailure = "the response body is larger than \(limit) bytes"
                return false
            }
            body.append(contentsOf: bytes)
        }
        bodyBytes += Int64(bytes.count)
        return true
    }
}
