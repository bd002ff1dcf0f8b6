import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One GET built from a URL template, `source.http` parameters, auth and validators, with its printable location.
struct HTTPRequestPlan {
    let request: URLRequest
    /// The full URL with every secret masked.
    let location: String
    let redactor: Redactor

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

        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.setValue("mlsfeed", forHTTPHeaderField: "User-Agent")
        for (name, value) in settings.headers { request.setValue(value, forHTTPHeaderField: name) }
        switch auth {
        case .basic(let user, let password):
            let token = Data("\(user):\(password)".utf8).base64EncodedString()
            request.setValue("Basic \(token)", forHTTPHeaderField: "Authorization")
        case .bearer(let token):
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        case .apiKeyHeader(let name, let value):
            request.setValue(value, forHTTPHeaderField: name)
        case .apiKeyQuery, nil:
            break
        }
        if let etag = conditional?.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let lastModified = conditional?.lastModified {
            request.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since")
        }
        self.request = request
    }

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
