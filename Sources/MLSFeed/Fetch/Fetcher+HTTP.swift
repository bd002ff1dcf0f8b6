import Foundation
import HTTPClient

extension Fetcher {
    /// What a GET gave once retries are spent or unneeded.
    enum HTTPResult {
        case body(HTTPChunkSource)
        case notModified(InputIdentity)
    }

    /// Sends `plan` until a complete 2xx body or a 304 comes back, retrying connection failures, timeouts, bodies cut
    /// short, 408, 429 and 5xx with exponential backoff and jitter (at least `Retry-After`, every wait capped by
    /// `maxBackoff`), at most `settings.attempts` requests in all. Each body is spooled to a file in `spool`, so a
    /// body cut short is retried before the parser sees a byte of it.
    ///
    /// Throws `CancellationError` within a poll interval (50 ms) of `cancellation` being set, during a transfer or
    /// a wait between attempts.
    static func get(_ plan: HTTPRequestPlan, settings: FetchSettings, client: HTTPClient, spool: SpoolDirectory,
                    cancellation: Cancellation, admit: (() throws -> Void)? = nil) throws -> HTTPResult {
        let attempts = max(1, settings.attempts)
        var lastStatus: Int?
        for attempt in 1...attempts {
            try cancellation.check()
            try admit?()
            let file = try spool.create()
            let outcome = Result { () throws(HTTPClientError) -> HTTPResponse in
                try client.perform(plan.request, into: .file(file.handle), shouldStop: { cancellation.isCancelled })
            }
            let reason: String
            var retryAfter: Double?
            switch outcome {
            case .success(let response):
                let status = response.status
                if (200..<300).contains(status) && !response.isCutShort {
                    try file.rewind()
                    return .body(HTTPChunkSource(file: file, response: response, location: plan.location,
                                                 attempts: attempt, redactor: plan.redactor))
                }
                if (200..<300).contains(status) {
                    reason = cutShort(response)
                } else if status == 304 {
                    return .notModified(InputIdentity(
                        location: plan.location, etag: response.headers["ETag"] ?? plan.conditional?.etag,
                        lastModified: response.headers["Last-Modified"] ?? plan.conditional?.lastModified))
                } else {
                    reason = "HTTP \(status) \(HTTPStatus.reason(status))"
                    lastStatus = status
                    guard HTTPStatus.isRetryable(status) else {
                        throw failure(plan, attempt: attempt, reason: reason, status: status)
                    }
                    retryAfter = response.headers["Retry-After"].flatMap(parseRetryAfter)
                }
            case .failure(.transient(let text)):
                reason = text
                lastStatus = nil
            case .failure(.cancelled):
                throw CancellationError()
            case .failure(.tls(let text)), .failure(.local(let text)):
                throw failure(plan, attempt: attempt, reason: text)
            case .failure(.sinkFull(let text)):
                throw DiskFull(path: spool.path, doing: "cannot spool GET \(plan.location)", reason: text)
            }
            guard attempt < attempts else {
                // Connection failures, timeouts, cut bodies, 408, 429 and 5xx: the service is unavailable now.
                throw failure(plan, attempt: attempt, reason: reason, status: lastStatus, transient: true)
            }
            let delay = retryDelay(after: attempt, retryAfter: retryAfter, settings: settings)
            var note = ""
            if let retryAfter, retryAfter > settings.maxBackoff {
                note = " (Retry-After \(format(retryAfter)) s capped by max_backoff)"
            }
            settings.log?(plan.redactor.redact(
                "GET \(plan.location): \(reason); retry \(attempt) of \(attempts - 1) in \(format(delay)) s\(note)"))
            try cancellation.sleep(seconds: delay)
        }
        throw failure(plan, attempt: attempts, reason: "no attempt made")
    }

    /// `body cut short after 854 of 1708 bytes`, or with libcurl's words when the length is unknown.
    private static func cutShort(_ response: HTTPResponse) -> String {
        if let expected = response.contentLength {
            return "body cut short after \(response.bodyBytes) of \(expected) bytes"
        }
        return "body cut short after \(response.bodyBytes) bytes (\(response.cutShort ?? "connection closed"))"
    }

    /// `GET URL failed after 3 attempts: HTTP 500 Internal Server Error` (or `GET URL failed: ...` after one).
    private static func failure(_ plan: HTTPRequestPlan, attempt: Int, reason: String, status: Int? = nil,
                                transient: Bool = false) -> FetchError {
        let failed = attempt == 1 ? "failed" : "failed after \(attempt) attempts"
        return FetchError(plan.redactor.redact("GET \(plan.location) \(failed): \(reason)"), status: status,
                          transient: transient)
    }

    /// `backoff · 2^(attempt−1)` with jitter in its upper half, at least `Retry-After`, and never more than
    /// `maxBackoff`: a server asking for an hour cannot stall a run longer than the configured cap.
    static func retryDelay(after attempt: Int, retryAfter: Double?, settings: FetchSettings) -> Double {
        let exponential = min(settings.maxBackoff, settings.backoff * pow(2, Double(attempt - 1)))
        let jittered = exponential / 2 + Double.random(in: 0...1) * exponential / 2
        return min(settings.maxBackoff, max(jittered, retryAfter ?? 0))
    }

    /// `Retry-After` as seconds: a number of seconds, or an HTTP date.
    static func parseRetryAfter(_ value: String) -> Double? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(text), seconds >= 0, seconds.isFinite { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text) else { return nil }
        return max(0, date.timeIntervalSinceNow)
    }

    private static func format(_ seconds: Double) -> String {
        String(format: "%.1f", seconds)
    }
}
