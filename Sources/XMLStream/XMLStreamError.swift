/// A document that is not well-formed, is refused for safety, or cannot be decoded; with line and column.
public struct XMLStreamError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One-line message (libxml2's own wording for well-formedness errors).
    public var message: String
    /// 1-based line of the problem (0 when unknown).
    public var line: Int
    /// 1-based column of the problem (0 when unknown).
    public var column: Int

    public init(_ message: String, line: Int, column: Int) {
        self.message = message
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column): error: \(message)" }
}
