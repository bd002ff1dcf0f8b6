/// A document that is not valid JSON, breaks a limit, or is not valid UTF-8; with line and column.
package struct JSONStreamError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One-line message.
    package var message: String
    /// 1-based line of the problem (0 when unknown).
    package var line: Int
    /// 1-based column of the problem, counted in bytes from the start of the line (0 when unknown).
    package var column: Int

    package init(_ message: String, line: Int, column: Int) {
        self.message = message
        self.line = line
        self.column = column
    }

    package var description: String { "\(line):\(column): error: \(message)" }
}
