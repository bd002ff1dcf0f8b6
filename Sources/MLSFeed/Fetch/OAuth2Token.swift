import Foundation
import HTTPClient
import JSONStream

/// An OAuth2 client-credentials token: fetched from the token URL when first needed, cached until shortly before
/// it expires, fetched again when the server refuses it (a 401). Its secret and the token itself are added to the
/// source's redactor and never printed.
final class OAuth2Token {
    private let grant: OAuth2Settings
    private let settings: FetchSettings
    private let client: HTTPClient
    private var token: String?
    private var expires = Date.distantPast
    /// Seconds before the announced expiry at which a cached token counts as expired.
    static let margin: Double = 60

    init(grant: OAuth2Settings, settings: FetchSettings, client: HTTPClient) {
        self.grant = grant
        self.settings = settings
        self.client = client
    }

    /// The token to send (fetching one when none is cached or it is about to expire).
    func current(cancellation: Cancellation) throws -> String {
        if let token, Date() < expires { return token }
        return try fetch(cancellation: cancellation)
    }

    /// Forgets the cached token: the server refused it.
    func invalidate() {
        token = nil
    }

    /// Every secret the token exchange knows: the client secret, and the token once there is one.
    var secrets: [String] { [grant.clientSecret] + (token.map { [$0] } ?? []) }

    /// POSTs the client-credentials form and reads `access_token` and `expires_in` from the JSON answer.
    private func fetch(cancellation: Cancellation) throws -> String {
        var form = "grant_type=client_credentials&client_id=\(Self.encode(grant.clientID))"
            + "&client_secret=\(Self.encode(grant.clientSecret))"
        if let scope = grant.scope { form += "&scope=\(Self.encode(scope))" }
        let request = HTTPRequest(method: .post, url: grant.tokenURL,
                                  headers: [("Content-Type", "application/x-www-form-urlencoded"),
                                            ("Accept", "application/json"), ("User-Agent", "mlsfeed")],
                                  body: Array(form.utf8), connectTimeout: settings.connectTimeout,
                                  readTimeout: settings.readTimeout, caFile: settings.caFile, maxRedirects: 0)
        let redactor = Redactor(secrets: secrets)
        let location = redactor.redactURL(grant.tokenURL)
        var lastReason = "no attempt made"
        for attempt in 1...max(1, settings.attempts) {
            try cancellation.check()
            let response: HTTPResponse
            do {
                response = try client.perform(request, into: .memory(limit: 1 << 20),
                                              shouldStop: { cancellation.isCancelled })
            } catch .cancelled {
                throw CancellationError()
            } catch .transient(let text) {
                lastReason = text
                if attempt < settings.attempts { try cancellation.sleep(seconds: min(settings.maxBackoff, 1)) }
                continue
            } catch {
                throw FetchError(redactor.redact("POST \(location) (OAuth2 token) failed: \(error.message)"))
            }
            guard (200..<300).contains(response.status) else {
                if HTTPStatus.isRetryable(response.status) && attempt < settings.attempts {
                    lastReason = "HTTP \(response.status) \(HTTPStatus.reason(response.status))"
                    try cancellation.sleep(seconds: min(settings.maxBackoff, 1))
                    continue
                }
                throw FetchError(redactor.redact("POST \(location) (OAuth2 token) failed: HTTP \(response.status) "
                    + "\(HTTPStatus.reason(response.status))"), status: response.status)
            }
            let answer = TokenAnswer()
            do {
                let parser = try JSONPushParser(delegate: answer)
                try parser.feed(response.body[...])
                try parser.finish()
            } catch {
                throw FetchError("POST \(location) (OAuth2 token): the answer is not JSON (\(error))")
            }
            guard let token = answer.accessToken, !token.isEmpty else {
                throw FetchError("POST \(location) (OAuth2 token): the answer has no access_token")
            }
            self.token = token
            expires = Date().addingTimeInterval(max(0, (answer.expiresIn ?? 3600) - Self.margin))
            return token
        }
        throw FetchError(redactor.redact("POST \(location) (OAuth2 token) failed after \(settings.attempts) "
            + "attempts: \(lastReason)"), transient: true)
    }

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn:
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? text
    }

    /// Reads `access_token` and `expires_in` from the top level of the token answer.
    private final class TokenAnswer: JSONStreamDelegate {
        var accessToken: String?
        var expiresIn: Double?
        private var key: String?
        private var depth = 0

        func startObject(parser: JSONPushParser) throws { depth += 1 }
        func endObject(parser: JSONPushParser) throws { depth -= 1 }
        func startArray(parser: JSONPushParser) throws { depth += 1 }
        func endArray(parser: JSONPushParser) throws { depth -= 1 }
        func key(_ key: Span<UInt8>, parser: JSONPushParser) throws { self.key = depth == 1 ? key.utf8String : nil }
        func string(_ value: Span<UInt8>, parser: JSONPushParser) throws {
            if key == "access_token" { accessToken = value.utf8String }
            if key == "expires_in" { expiresIn = Double(value.utf8String) }
        }
        func number(_ text: Span<UInt8>, parser: JSONPushParser) throws {
            if key == "expires_in" { expiresIn = Double(text.utf8String) }
        }
        func boolean(_ value: Bool, parser: JSONPushParser) throws {}
        func null(parser: JSONPushParser) throws {}
    }
}
