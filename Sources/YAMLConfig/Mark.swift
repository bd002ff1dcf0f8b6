/// A 1-based line and column in a YAML source.
public struct Mark: Sendable, Hashable, CustomStringConvertible {
    /// 1-based line.
    public let line: Int
    /// 1-based column, counted in characters.
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The start of a file.
    public static let start = Mark(line: 1, column: 1)

    /// `line:column`.
    public var description: String { "\(line):\(column)" }
}
