import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP GET whose body URLSession spools to a temporary file (a download task), read back once complete.
///
/// URLSession on Linux has no backpressure: a data task queues every received piece for its delegate, so a fast
/// network and a busy consumer pile the body up in memory. A download task writes each piece to disk on the
/// transfer's own thread instead, so memory stays flat whatever the body size; the price is that parsing starts
/// when the body is complete. Because nothing reaches the consumer before then, a body cut short is retried too.
final class HTTPTransfer: NSObject, URLSessionDownloadDelegate, @unchecked Sendable {
    /// Why a request gave no usable response.
    enum Failure: Error {
        /// No complete response: refused, reset, DNS, TLS, timeouts, a body cut short. Worth retrying.
        case transient(String)
        /// The spooled body cannot be read back. Not worth retrying.
        case local(String)
    }

    private let request: URLRequest
    private let connectTimeout: Double
    private let readTimeout: Double
    private let condition = NSCondition()

    // Guarded by `condition`.
    private var session: URLSession?
    private var task: URLSessionDownloadTask?
    private var written: Int64 = 0
    /// The body's announced size, from the download progress (-1: unknown).
    private var expected: Int64 = -1
    private var lastActivity: Double = 0
    private var sawResponse = false
    private var completed = false
    private var failure: Failure?
    private var body: FileHandle?
    private var response: HTTPURLResponse?

    init(request: URLRequest, connectTimeout: Double, readTimeout: Double) {
        self.request = request
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
        super.init()
    }

    /// Runs once the session let go of its delegate, maybe on the session's own queue: only the file is closed.
    deinit {
        try? body?.close()
    }

    /// Sends the request and waits for the whole body (or a failure), enforcing the connect and read timeouts:
    /// no response headers within `connectTimeout`, or no byte for `readTimeout`, cancels the request.
    func run() -> Result<HTTPURLResponse, Failure> {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.timeoutIntervalForRequest = max(connectTimeout, readTimeout) + 1
        configuration.timeoutIntervalForResource = 7 * 24 * 3600
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
        let task = session.downloadTask(with: request)
        condition.lock()
        self.session = session
        self.task = task
        let started = monotonicSeconds()
        lastActivity = started
        condition.unlock()
        task.resume()

        while true {
            let hasResponse = task.response != nil
            condition.lock()
            if completed { break }
            let now = monotonicSeconds()
            if hasResponse && !sawResponse {
                sawResponse = true
                lastActivity = now
            }
            if !sawResponse && written == 0 && now - started >= connectTimeout {
                failure = .transient("no response within \(Self.seconds(connectTimeout)) (connect timeout)")
                break
            }
            if now - lastActivity >= readTimeout {
                failure = .transient("no data for \(Self.seconds(readTimeout)) (read timeout) after \(written) bytes")
                break
            }
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.1))
            condition.unlock()
        }
        // The lock is held here.
        let outcome: Result<HTTPURLResponse, Failure>
        if let failure {
            outcome = .failure(failure)
        } else if let response {
            outcome = .success(response)
        } else {
            outcome = .failure(.transient("no response"))
        }
        let finished = completed
        completed = true
        condition.unlock()
        if !finished {
            task.cancel()
            session.invalidateAndCancel()
        }
        return outcome
    }

    /// Up to `max` bytes of the spooled body; nil at its end.
    func read(max: Int) throws(Failure) -> [UInt8]? {
        condition.lock()
        let body = self.body
        condition.unlock()
        guard let body else { return nil }
        let data: Data?
        do {
            data = try body.read(upToCount: max)
        } catch {
            throw .local("cannot read the spooled body: \(error.localizedDescription)")
        }
        guard let data, !data.isEmpty else { return nil }
        return [UInt8](data)
    }

    // MARK: - URLSessionDownloadDelegate (called on the session's serial queue)

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
                    totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) {
        condition.lock()
        written = totalBytesWritten
        expected = totalBytesExpectedToWrite
        lastActivity = monotonicSeconds()
        condition.unlock()
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask,
                    didFinishDownloadingTo location: URL) {
        // Opened, then unlinked at once: the space is freed when the handle closes, even if the process dies.
        let handle = FileHandle(forReadingAtPath: location.path)
        try? FileManager.default.removeItem(at: location)
        condition.lock()
        if let handle {
            body = handle
        } else {
            failure = failure ?? .local("cannot open the spooled body at \(location.path)")
        }
        condition.unlock()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        condition.lock()
        defer {
            completed = true
            condition.broadcast()
            condition.unlock()
            session.finishTasksAndInvalidate()
        }
        guard !completed else { return }
        let response = task.response as? HTTPURLResponse
        self.response = response
        if let stored = try? body?.seekToEnd() {
            try? body?.seek(toOffset: 0)
            written = Int64(stored)
        }
        guard failure == nil else { return }
        guard let response else {
            // A download that fails has no response object; bytes written mean the body had begun.
            if written > 0 {
                failure = .transient(expected >= written
                    ? "body cut short after \(written) of \(expected) bytes"
                    : "body cut short after \(written) bytes (\(error.map(Self.describe) ?? "no response"))")
            } else {
                failure = .transient(error.map(Self.describe) ?? "no response")
            }
            return
        }
        // An error status is the answer whatever happened to its body (a 401 challenge is cancelled, see below).
        guard (200..<300).contains(response.statusCode) else { return }
        let expected = response.expectedContentLength
        let encoded = (response.value(forHTTPHeaderField: "Content-Encoding") ?? "identity")
            .lowercased() != "identity"
        let lengthKnown = expected >= 0 && !encoded
        if let error {
            failure = .transient(lengthKnown
                ? "body cut short after \(written) of \(expected) bytes"
                : "body cut short after \(written) bytes (\(Self.describe(error)))")
        } else if lengthKnown && written != expected {
            failure = .transient("body cut short after \(written) of \(expected) bytes")
        } else if body == nil && expected != 0 {
            failure = .local("the body was not spooled")
        }
    }

    /// A 401 with `WWW-Authenticate`: the credentials (if any) were sent with the request and refused, so the
    /// challenge is cancelled and the 401 is the answer (URLSession on Linux would otherwise wait forever).
    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?)
                        -> Void) {
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    /// A short, stable description of a URLSession error.
    static func describe(_ error: any Error) -> String {
        guard let urlError = error as? URLError else { return error.localizedDescription }
        switch urlError.code {
        case .cannotConnectToHost: return "cannot connect to the host (connection refused)"
        case .cannotFindHost, .dnsLookupFailed: return "cannot find the host"
        case .timedOut: return "timed out"
        case .networkConnectionLost: return "the connection was lost"
        case .notConnectedToInternet: return "no network"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            return "TLS failed (\(urlError.code.rawValue))"
        case .cancelled: return "cancelled"
        default: return "URL error \(urlError.code.rawValue)"
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
