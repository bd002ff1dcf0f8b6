import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP request whose body is spooled to an unlinked temp file as it arrives, read back by one consumer.
///
/// URLSession has no backpressure, so the delegate writes every piece to disk at once and memory stays flat
/// however slow the consumer is; the consumer reads behind the writer and so streams while the body arrives.
final class HTTPTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// Why a request gave no usable response.
    enum Failure: Error {
        /// No response: refused, reset, DNS, TLS, or no headers within the connect timeout. Retryable.
        case connection(String)
        /// The body stopped early. Not retried: the consumer may have read part of it.
        case body(String)
    }

    private let request: URLRequest
    private let connectTimeout: Double
    private let readTimeout: Double
    private let condition = NSCondition()
    private var session: URLSession?
    private var task: URLSessionDataTask?
    private let spoolPath: String
    private var writer: FileHandle?
    private var reader: FileHandle?

    // Guarded by `condition`.
    private var response: HTTPURLResponse?
    private var written: Int64 = 0
    private var readOffset: Int64 = 0
    private var completed = false
    private var failure: Failure?
    private var lastActivity: Double = 0

    init(request: URLRequest, connectTimeout: Double, readTimeout: Double) throws {
        self.request = request
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
        spoolPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("mlsfeed-http-\(UUID().uuidString)").path
        super.init()
        guard FileManager.default.createFile(atPath: spoolPath, contents: nil),
              let writer = FileHandle(forWritingAtPath: spoolPath),
              let reader = FileHandle(forReadingAtPath: spoolPath)
        else {
            try? FileManager.default.removeItem(atPath: spoolPath)
            throw FetchError("cannot create a temporary file in \(FileManager.default.temporaryDirectory.path)")
        }
        self.writer = writer
        self.reader = reader
        // Unlinked at once: the space is freed when both handles close, even if the process dies.
        try? FileManager.default.removeItem(atPath: spoolPath)
    }

    /// Runs once the session let go of its delegate, maybe on the session's own queue: the session is done then,
    /// so only the files are closed here.
    deinit {
        try? writer?.close()
        try? reader?.close()
    }

    /// Sends the request.
    func start() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.timeoutIntervalForRequest = max(connectTimeout, readTimeout)
        configuration.timeoutIntervalForResource = 7 * 24 * 3600
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
        let task = session.dataTask(with: request)
        condition.lock()
        self.session = session
        self.task = task
        lastActivity = monotonicSeconds()
        condition.unlock()
        task.resume()
    }

    /// Stops the request; the consumer's next read fails or ends.
    func cancel() {
        condition.lock()
        let task = self.task
        if !completed {
            completed = true
            failure = failure ?? .connection("cancelled")
        }
        condition.broadcast()
        condition.unlock()
        task?.cancel()
        session?.invalidateAndCancel()
    }

    /// Waits for the response headers (at most the connect timeout).
    func waitForResponse() -> Result<HTTPURLResponse, Failure> {
        condition.lock()
        let deadline = monotonicSeconds() + connectTimeout
        while response == nil && !completed {
            let now = monotonicSeconds()
            if now >= deadline {
                condition.unlock()
                cancel()
                return .failure(.connection("no response within \(seconds(connectTimeout)) (connect timeout)"))
            }
            _ = condition.wait(until: Date(timeIntervalSinceNow: min(deadline - now, 0.25)))
        }
        defer { condition.unlock() }
        if let response { return .success(response) }
        return .failure(failure ?? .connection("no response"))
    }

    /// Up to `max` bytes of the body, waiting for them to arrive; nil at the end of a complete body.
    func read(max: Int) throws(Failure) -> [UInt8]? {
        condition.lock()
        var waitedForMore = false
        while true {
            let available = written - readOffset
            if let failure { condition.unlock(); throw failure }
            if available >= Int64(max) || (available > 0 && (completed || waitedForMore)) { break }
            if completed { condition.unlock(); return nil }
            let now = monotonicSeconds()
            if now - lastActivity >= readTimeout {
                let failure = Failure.body("no data for \(seconds(readTimeout)) (read timeout) after \(written) bytes")
                self.failure = failure
                condition.unlock()
                cancel()
                throw failure
            }
            // Some bytes waiting: give the network a moment to fill a whole chunk, then hand out what is there.
            if available > 0 { waitedForMore = true }
            _ = condition.wait(until: Date(timeIntervalSinceNow: available > 0 ? 0.05 : 0.25))
        }
        let count = Int(min(written - readOffset, Int64(max)))
        readOffset += Int64(count)
        condition.unlock()
        let data: Data?
        do {
            data = try reader?.read(upToCount: count)
        } catch {
            throw .body("cannot read the spooled body: \(error.localizedDescription)")
        }
        guard let data, data.count == count else { throw .body("the spooled body is shorter than written") }
        return [UInt8](data)
    }

    // MARK: - URLSessionDataDelegate (called on the session's serial queue)

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        condition.lock()
        self.response = response as? HTTPURLResponse
        if self.response == nil { failure = .connection("not an HTTP response") }
        lastActivity = monotonicSeconds()
        condition.broadcast()
        condition.unlock()
        completionHandler(self.response == nil ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        do {
            try writer?.write(contentsOf: data)
        } catch {
            condition.lock()
            failure = failure ?? .body("cannot spool the body to a temporary file: \(error.localizedDescription)")
            condition.broadcast()
            condition.unlock()
            dataTask.cancel()
            return
        }
        condition.lock()
        written += Int64(data.count)
        lastActivity = monotonicSeconds()
        condition.broadcast()
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
        guard failure == nil, !completed else { return }
        if let response {
            let expected = response.expectedContentLength
            let encoded = (response.value(forHTTPHeaderField: "Content-Encoding") ?? "identity")
                .lowercased() != "identity"
            if let error {
                failure = .body(expected >= 0 && !encoded
                    ? "body cut short after \(written) of \(expected) bytes"
                    : "body cut short after \(written) bytes (\(Self.describe(error)))")
            } else if expected >= 0 && !encoded && written != expected {
                failure = .body("body cut short after \(written) of \(expected) bytes")
            }
        } else {
            failure = .connection(error.map(Self.describe) ?? "no response")
        }
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

    private func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
