import Foundation
import Postgres

/// The one redactor of the package: masks secrets in printable text (errors, warnings, events, summaries, the
/// ledger). Without knowing any secret it masks the password of every `scheme://user:password@` URL, credential-like
/// query parameters (`apikey=`, `access_token=` ...) and libpq `password=` keywords; given the secret values of a
/// pipeline (passwords, tokens, API keys) it masks them wherever they appear, also percent-encoded.
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

    /// `text` with every URL and `password=` keyword scrubbed (`scrub`) and every known secret (also in its
    /// percent-encoded form) replaced by `***`.
    package func redact(_ text: String) -> String {
        var result = Self.scrub(text)
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
            // A value masked before (`***`, maybe with the text's punctuation after it) stays as it is.
            let masked = pair[pair.index(after: equals)...].hasPrefix(mask)
            return isSecretParameter(String(name)) && !masked ? "\(name)=\(mask)" : String(pair)
        }
        text.replaceSubrange(text.index(after: question)..<fragmentStart, with: pairs.joined(separator: "&"))
        return text
    }

    /// `text` safe to print without knowing any secret: every URL in it through `redactURL`, and the value of every
    /// libpq `password=` keyword (`password=s3cret`, `password = 's3 cr\\'et'`) masked.
    package static func scrub(_ text: String) -> String {
        var result = text.contains("://") ? scrubURLs(text) : text
        if result.contains("=") { result = ConnectionString.maskingPasswordKeywords(scrubQueryParameters(result)) }
        return result
    }

    /// Every `scheme://...` token of `text` (up to white space or a quote) through `redactURL`.
    private static func scrubURLs(_ text: String) -> String {
        var result = ""
        var rest = text[...]
        while let scheme = rest.range(of: "://") {
            // The token starts after the last delimiter before `://`.
            let start = rest[..<scheme.lowerBound].lastIndex(where: isURLDelimiter).map { rest.index(after: $0) }
                ?? rest.startIndex
            let end = rest[scheme.upperBound...].firstIndex(where: isURLDelimiter) ?? rest.endIndex
            result += rest[..<start]
            result += redactURL(String(rest[start..<end]))
            rest = rest[end...]
        }
        return result + rest
    }

    /// Credential-like `?name=value` / `&name=value` pairs anywhere in `text` (also of a URL printed with spaces in
    /// it, which `scrubURLs` cuts short).
    private static func scrubQueryParameters(_ text: String) -> String {
        text.replacing(/([?&])([A-Za-z0-9_.%-]+)=([^&\s"#<>`]*)/) { match in
            let (_, separator, name, value) = match.output
            // A value masked before (`***`, maybe with the text's punctuation after it) stays as it is.
            guard isSecretParameter(String(name)), !value.hasPrefix(mask), !value.isEmpty else {
                return String(match.output.0)
            }
            return "\(separator)\(name)=\(mask)"
        }
    }

    private static func isURLDelimiter(_ character: Character) -> Bool {
        character.isWhitespace || "\"<>`".contains(character)
    }

    /// True for parameter names like `apikey`, `api_key`, `access_token`, `password`, `X-Amz-Signature`.
    static func isSecretParameter(_ name: String) -> Bool {
        let folded = (name.removingPercentEncoding ?? name).lowercased().filter { $0 != "_" && $0 != "-" }
        return secretParameterWords.contains { folded.hasSuffix($0) || folded == $0 }
            || folded.hasPrefix("pass") || folded.hasPrefix("apikey")
    }
}
