import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Fetcher {
    /// What a GET gave once retries are spent or unneeded.
    enum HTTPResult {
        case body(HTTPChunkSource)
        case notModified(InputIdentity)
    }

    /// Sends `plan` until a complete 2xx body or a 304 comes back, retrying connection failures, timeouts, bodies cut
    /// short, 408, 429 and 5xx with exponential backoff and jitter (at least `Retry-After`), at most
    /// `settings.attempts` requests in all.
    static func get(_ plan: HTTPRequestPlan, settings: FetchSettings) throws -> HTTPResult {
        let attempts = max(1, settings.attempts)
        for attempt in 1...attempts {
            let transfer = HTTPTransfer(request: plan.request, connectTimeout: settings.connectTimeout,
                                        readTimeout: settings.readTimeout)
            let reason: String
            var retryAfter: Double?
            switch transfer.run() {
            case .success(let response):
                let status = response.statusCode
                if (200..<300).contains(status) {
                    return .body(HTTPChunkSource(transfer: transfer, response: response, location: plan.location,
                                                 attempts: attempt, redactor: plan.redactor))
                }
                if status == 304 {
                    return .notModified(InputIdentity(
                        location: plan.location,
                        etag: response.value(forHTTPHeaderField: "ETag") ?? plan.request.value(
                            forHTTPHeaderField: "If-None-Match")))
                }
                reason = "HTTP \(status) \(HTTPStatus.reason(status))"
                guard HTTPStatus.isRetryable(status) else {
                    throw failure(plan, attempt: attempt, reason: reason)
                }
                retryAfter = response.value(forHTTPHeaderField: "Retry-After").flatMap(parseRetryAfter)
            case .failure(.transient(let text)):
                reason = text
            case .failure(.local(let text)):
                throw failure(plan, attempt: attempt, reason: text)
            }
            guard attempt < attempts else { throw failure(plan, attempt: attempt, reason: reason) }
            let delay = retryDelay(after: attempt, retryAfter: retryAfter, settings: settings)
            settings.log?(plan.redactor.redact(
                "GET \(plan.location): \(reason); retry \(attempt) of \(attempts - 1) in \(format(delay)) s"))
            Thread.sleep(forTimeInterval: delay)
        }
        throw failure(plan, attempt: attempts, reason: "no attempt made")
    }

    /// `GET URL failed after 3 attempts: HTTP 500 Internal Server Error` (or `GET URL failed: ...` after one).
    private static func failure(_ plan: HTTPRequestPlan, attempt: Int, reason: String) -> FetchError {
        let failed = attempt == 1 ? "failed" : "failed after \(attempt) attempts"
        return FetchError(plan.redactor.redact("GET \(plan.location) \(failed): \(reason)"))
    }

    /// `backoff · 2^(attempt−1)`, capped at `maxBackoff`, with jitter in its upper half; at least `Retry-After`
    /// (itself capped at `maxRetryAfter`).
    static func retryDelay(after attempt: Int, retryAfter: Double?, settings: FetchSettings) -> Double {
        let exponential = min(settings.maxBackoff, settings.backoff * pow(2, Double(attempt - 1)))
        let jittered = exponential / 2 + Double.random(in: 0...1) * exponential / 2
        return max(jittered, min(retryAfter ?? 0, settings.maxRetryAfter))
    }

    /// `Retry-After` as seconds: a number of seconds, or an HTTP date.
    static func parseRetryAfter(_ value: String) -> Double? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(text), seconds >= 0 { return seconds }
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
