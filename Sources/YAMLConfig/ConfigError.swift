/// A configuration mistake, printed like a compiler: `file:line:col: error: key.path: message`.
///
/// When `path` is empty the description is `file:line:col: error: message`. A `line` of 0 means the problem
/// concerns the whole file (it could not be read) and the description is `file: error: message`.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    public let line: Int
    public let column: Int
    /// Dotted key path with `[i]` sequence indexes, e.g. `stages.load.batch_size` or `sources[2].url`.
    public let path: String
    public let message: String

    public init(file: String, line: Int, column: Int, path: String = "", message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.message = message
    }

    public init(_ message: String, file: String, mark: Mark, path: String = "") {
        self.init(file: file, line: mark.line, column: mark.column, path: path, message: message)
    }

    public var description: String {
        let location = line > 0 ? "\(file):\(line):\(column)" : file
        let subject = path.isEmpty ? message : "\(path): \(message)"
        return "\(location): error: \(subject)"
    }
}
