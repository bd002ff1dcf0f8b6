/// Reads a failed connection's message, which libpq gives as text only: connecting with `PQERRORS_VERBOSE`
/// makes the server's error carry its SQLSTATE (`... failed: FATAL:  28P01: password authentication failed for
/// user "app"`, then a `LOCATION:` line), so a wrong password or a missing `CONNECT` right is told apart from an
/// unreachable server by its code, not by words that change with the server's language.
enum ConnectionErrorText {
    /// The SQLSTATE in `text` and the text as the default verbosity prints it (without the code and the
    /// `LOCATION:` line); nil when the text holds no server error (a refused connection, a timeout).
    static func parse(_ text: String) -> (code: String, text: String)? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (index, line) in lines.enumerated() {
            // `SEVERITY:  CODE: message`: two spaces after the severity, one after the code.
            var searchFrom = line.startIndex
            while let severityEnd = line.range(of: ":  ", range: searchFrom..<line.endIndex) {
                searchFrom = severityEnd.upperBound
                let rest = line[severityEnd.upperBound...]
                let code = rest.prefix(5)
                guard code.count == 5, code.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }),
                      rest.dropFirst(5).hasPrefix(": ") else { continue }
                lines[index] = String(line[..<severityEnd.upperBound]) + String(rest.dropFirst(7))
                lines.removeAll { $0.hasPrefix("LOCATION:  ") }
                return (String(code), lines.joined(separator: "\n"))
            }
        }
        return nil
    }
}
