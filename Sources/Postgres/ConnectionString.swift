import Foundation

/// The passwords of libpq connection strings (`postgresql://` URLs and `key=value` lists), so that this wrapper's
/// messages never carry one. Printable text elsewhere goes through the domain's `Redactor`.
package enum ConnectionString {
    /// The passwords written in `conninfo` (URL user info or `password=` keywords), for scrubbing messages.
    static func passwords(in conninfo: String) -> [String] {
        var found: [String] = []
        if let range = urlPasswordRange(conninfo) { found.append(String(conninfo[range])) }
        var text = conninfo
        while let range = keywordPasswordRange(text) {
            var value = String(text[range])
            if value.hasPrefix("'") && value.hasSuffix("'") && value.count >= 2 {
                value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\\'", with: "'")
            }
            found.append(value)
            text.replaceSubrange(range, with: "***")
        }
        return found.filter { !$0.isEmpty && $0 != "***" }
    }

    /// `text` with the value of every libpq `password=` keyword (`password=s3cret`, `password = 's3 cr\\'et'`)
    /// replaced by `***`, also inside a longer message: the domain's redactor masks keywords with it.
    package static func maskingPasswordKeywords(_ text: String) -> String {
        var text = text
        while let range = keywordPasswordRange(text) { text.replaceSubrange(range, with: "***") }
        return text
    }

    /// `text` with every password of `conninfo` replaced by `***`.
    static func scrub(_ text: String, conninfo: String) -> String {
        passwords(in: conninfo).reduce(text) { $0.replacingOccurrences(of: $1, with: "***") }
    }

    /// The password of a `scheme://user:password@host` URL.
    private static func urlPasswordRange(_ text: String) -> Range<String.Index>? {
        guard let scheme = text.range(of: "://") else { return nil }
        let rest = text[scheme.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"),
              let colon = authority[..<at].firstIndex(of: ":") else { return nil }
        let start = authority.index(after: colon)
        guard start < at, authority[start..<at] != "***" else { return nil }
        return start..<at
    }

    /// The value of the first `password=` keyword (or URL query parameter) not already redacted.
    private static func keywordPasswordRange(_ text: String) -> Range<String.Index>? {
        var searchStart = text.startIndex
        while let key = text.range(of: "password", options: [], range: searchStart..<text.endIndex) {
            searchStart = key.upperBound
            if key.lowerBound > text.startIndex {
                let before = text[text.index(before: key.lowerBound)]
                guard before == " " || before == "\t" || before == "?" || before == "&" else { continue }
            }
            var index = key.upperBound
            while index < text.endIndex, text[index] == " " { index = text.index(after: index) }
            guard index < text.endIndex, text[index] == "=" else { continue }
            index = text.index(after: index)
            while index < text.endIndex, text[index] == " " { index = text.index(after: index) }
            let valueStart = index
            if index < text.endIndex, text[index] == "'" {
                index = text.index(after: index)
                while index < text.endIndex, text[index] != "'" {
                    if text[index] == "\\" { index = text.index(after: index) }
                    if index < text.endIndex { index = text.index(after: index) }
                }
                if index < text.endIndex { index = text.index(after: index) }
            } else {
                while index < text.endIndex, !" \t&".contains(text[index]) { index = text.index(after: index) }
            }
            if text[valueStart..<index] == "***" || valueStart == index { continue }
            return valueStart..<index
        }
        return nil
    }
}
