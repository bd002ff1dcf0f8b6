import Foundation

/// Masks secrets — URL passwords, credential-like query parameters and known secret values — in printable text.
package struct Redactor: Sendable, Hashable {
    /// What replaces a secret.
    package static let mask = "***"

    /// Query parameter names whose values are always masked (compared case-insensitively, `-`/`_` ignored).
    static let secretParameterWords = ["key", "token", "password", "passwd", "pwd", "secret", "signature", "auth",
                                       "credential", "sig"]

    /// Exact secret values (passwords, tokens, API keys) masked wherever they appear.
    package var secrets: [String]

    package init(secrets: [String] = []) {
        // Longest first, so a secret containing another is masked whole; very short values would mask noise.
        self.secrets = Array(Set(secrets.filter { $0.count >= 3 })).sorted { ($0.count, $0) > ($1.count, $1) }
    }

    /// `text` with every known secret (also in its percent-encoded form) replaced by `***`.
    package func redact(_ text: String) -> String {
        var result = text
        for secret in secrets {
            result = result.replacingOccurrences(of: secret, with: Self.mask)
            if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics), encoded != secret {
                result = result.replacingOccurrences(of: encoded, with: Self.mask)
            }
        }
        return result
    }

    /// A URL safe to print: the password of `user:password@` and credential-like query values masked, then `redact`.
    package func redactURL(_ url: String) -> String {
        redact(Self.redactURL(url))
    }

    /// A URL safe to print without knowing any secret: masks `user:password@` and credential-like query values.
    package static func redactURL(_ url: String) -> String {
        var text = url
        if let scheme = text.range(of: "://") {
            let authorityEnd = text[scheme.upperBound...].firstIndex(where: { "/?#".contains($0) }) ?? text.endIndex
            let authority = text[scheme.upperBound..<authorityEnd]
            if let at = authority.lastIndex(of: "@") {
                let userInfo = authority[..<at]
                let masked = userInfo.firstIndex(of: ":").map { String(userInfo[..<$0]) + ":" + mask }
                    ?? String(userInfo)
                text.replaceSubrange(scheme.upperBound..<at, with: masked)
            }
        }
        guard let question = text.firstIndex(of: "?") else { return text }
        let fragmentStart = text[question...].firstIndex(of: "#") ?? text.endIndex
        let query = text[text.index(after: question)..<fragmentStart]
        let pairs = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = pair[..<equals]
            return isSecretParameter(String(name)) ? "\(name)=\(mask)" : String(pair)
        }
        text.replaceSubrange(text.index(after: question)..<fragmentStart, with: pairs.joined(separator: "&"))
        return text
    }

    /// True for parameter names like `apikey`, `api_key`, `access_token`, `password`, `X-Amz-Signature`.
    static func isSecretParameter(_ name: String) -> Bool {
        let folded = (name.removingPercentEncoding ?? name).lowercased().filter { $0 != "_" && $0 != "-" }
        return secretParameterWords.contains { folded.hasSuffix($0) || folded == $0 }
            || folded.hasPrefix("pass") || folded.hasPrefix("apikey")
    }
}
