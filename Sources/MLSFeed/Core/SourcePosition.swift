/// Where something sits in an input: file (or URL, or `-` for stdin), 1-based line and column.
public struct SourcePosition: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:col`, the prefix of every compiler-style message.
    public var description: String { "\(file):\(line):\(column)" }
}
