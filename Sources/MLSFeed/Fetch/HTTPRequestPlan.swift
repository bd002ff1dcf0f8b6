import Foundation
import HTTPClient

/// One GET built from a URL template, `source.http` parameters, auth and validators, with its printable location.
struct HTTPRequestPlan {
    let request: HTTPRequest
    /// The full request URL (parameters and a query API key included) with every secret masked: the input's
    /// location in errors, in its identity and as its ledger key.
    let location: String
    let redactor: Redactor
    /// The validators sent (`If-None-Match`, `If-Modified-Since`), if any.
    let conditional: Conditional?

    /// Characters left as they are in a query component (RFC 3986 unreserved).
    private static let unreserved = CharacterSet(charactersIn:
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    init(base: String, settings: FetchSettings, extraParams: [(String, String)] = [],
         conditional: Conditional?) throws {
        guard var components = URLComponents(string: base), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", components.host?.isEmpty == false
        else {
            throw FetchError("\(Redactor.redactURL(base)): not a valid http(s) URL")
        }
        var auth = settings.auth
        var secrets = settings.secrets
        if let user = components.user {
            // Credentials in the URL become basic auth (unless source.http.auth says otherwise).
            let password = components.password ?? ""
            if auth == nil { auth = .basic(user: user, password: password) }
            secrets += [password, Data("\(user):\(password)".utf8).base64EncodedString()]
            components.user = nil
            components.password = nil
        }
        var params = settings.params + extraParams
        if case .apiKeyQuery(let name, let value) = auth { params.append((name, value)) }
        if !params.isEmpty {
            let encoded = params.map { Self.encode($0.0) + "=" + Self.encode($0.1) }.joined(separator: "&")
            let existing = components.percentEncodedQuery.map { $0.isEmpty ? "" : $0 + "&" } ?? ""
            components.percentEncodedQuery = existing + encoded
        }
        guard let url = components.url else {
            throw FetchError("\(Redactor.redactURL(base)): not a valid http(s) URL")
        }
        redactor = Redactor(secrets: secrets)
        location = redactor.redactURL(url.absoluteString)
        self.conditional = conditional

        var headers = [("User-Agent", "mlsfeed")]
        func set(_ name: String, _ value: String) {
            headers.removeAll { $0.0.lowercased() == name.lowercased() }
            headers.append((name, value))
        }
        for (name, value) in settings.headers { set(name, value) }
        switch auth {
        case .basic(let user, let password):
            set("Authorization", "Basic " + Data("\(user):\(password)".utf8).base64EncodedString())
        case .bearer(let token):
            set("Authorization", "Bearer \(token)")
        case .apiKeyHeader(let name, let value):
            set(name, value)
        case .apiKeyQuery, .oauth2, nil:
            // OAuth2: the Web API source sends the token it holds as a bearer token (`OAuth2Token`).
            break
        }
        if let etag = conditional?.etag { set("If-None-Match", etag) }
        if let lastModified = conditional?.lastModified { set("If-Modified-Since", lastModified) }
        // Any auth (an API key header or query parameter included) keeps redirects within the URL's origin.
        request = HTTPRequest(method: .get, url: url.absoluteString, headers: headers.map { ($0.0, $0.1) },
                              connectTimeout: settings.connectTimeout, readTimeout: settings.readTimeout,
                              caFile: settings.caFile, carriesCredentials: auth != nil)
    }

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
