/// Where something sits in an input: file (or URL, or `-` for stdin), 1-based line and column.
package struct SourcePosition: Sendable, Hashable, CustomStringConvertible {
    package var file: String
    package var line: Int
    package var column: Int

    package init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:col`, the prefix of every compiler-style message.
    package var description: String { "\(file):\(line):\(column)" }
}
