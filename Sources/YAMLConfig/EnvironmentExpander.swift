/// Expands `${VAR}` and `${VAR:-default}` inside scalar values; `$${` stands for a literal `${`.
///
/// Like the shell, `${VAR:-default}` uses the default when the variable is unset or empty; `${VAR}` with the
/// variable unset is an error (an empty value is fine). Defaults are taken literally and cannot nest.
struct EnvironmentExpander {
    /// Why a scalar could not be expanded; `message` is the exact text users see.
    struct Failure: Error {
        let message: String
    }

    let environment: [String: String]

    /// The expanded text, or nil when `text` holds no `${` at all (the scalar stays exactly as written).
    func expand(_ text: String) throws(Failure) -> String? {
        guard text.contains("${") else { return nil }
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            let rest = text[index...]
            if rest.hasPrefix("$${") {
                result += "${"
                index = text.index(index, offsetBy: 3)
            } else if rest.hasPrefix("${") {
                let bodyStart = text.index(index, offsetBy: 2)
                guard let close = text[bodyStart...].firstIndex(of: "}") else {
                    throw Failure(message: "unterminated \"${\" (missing \"}\")")
                }
                result += try substitution(for: text[bodyStart..<close])
                index = text.index(after: close)
            } else {
                result.append(text[index])
                index = text.index(after: index)
            }
        }
        return result
    }

    /// The value of one `${...}` body: `NAME` or `NAME:-default`.
    private func substitution(for body: Substring) throws(Failure) -> String {
        var name = body
        var fallback: Substring?
        if let separator = body.firstRange(of: ":-") {
            name = body[..<separator.lowerBound]
            fallback = body[separator.upperBound...]
        }
        guard Self.isValidName(name) else {
            throw Failure(message: "invalid environment variable name \"\(name)\"")
        }
        if let value = environment[String(name)], fallback == nil || !value.isEmpty {
            return value
        }
        if let fallback {
            return String(fallback)
        }
        throw Failure(message: "environment variable \(name) is not set")
    }

    private static func isValidName(_ name: Substring) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || isASCIILetter(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || isASCIILetter($0) || ("0"..."9").contains($0) }
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}
