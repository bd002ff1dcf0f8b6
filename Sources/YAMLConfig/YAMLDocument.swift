import Foundation

/// Entry points that turn YAML text or files into a checked `YAMLNode` tree.
public enum YAMLDocument {
    /// Parses one document. `environment` is used for `${VAR}` / `${VAR:-default}` expansion inside scalar values
    /// (a missing variable without default is a ConfigError naming the variable at the scalar's position;
    /// `$${` is a literal `${`). Syntax errors carry libyaml's problem text and position.
    ///
    /// An empty document (or one that is just null) is an empty mapping. A second document is an error.
    public static func parse(_ text: String, file: String, environment: [String: String]) throws -> YAMLNode {
        try parse(bytes: Array(text.utf8), file: file, environment: environment)
    }

    /// Reads and parses the file at `path`; errors name `path` as the file, read errors included.
    public static func load(path: String, environment: [String: String]) throws -> YAMLNode {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ConfigError(file: path, line: 0, column: 0, message: "no such file")
        }
        guard !isDirectory.boolValue else {
            throw ConfigError(file: path, line: 0, column: 0, message: "is a directory, not a YAML file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigError(file: path, line: 0, column: 0, message: "cannot read file")
        }
        return try parse(bytes: Array(data), file: path, environment: environment)
    }

    /// Parses one document from raw bytes (as read from a file: libyaml checks the encoding).
    package static func parse(bytes: [UInt8], file: String, environment: [String: String]) throws(ConfigError)
        -> YAMLNode {
        var builder = YAMLTreeBuilder(file: file, environment: environment)
        do {
            let parser = try LibYAMLParser(bytes: bytes)
            while true {
                if let root = try builder.consume(try parser.next()) {
                    return root
                }
            }
        } catch let error as YAMLSyntaxError {
            throw ConfigError(error.message, file: file, mark: error.mark)
        } catch let error as ConfigError {
            throw error
        } catch {
            throw ConfigError("\(error)", file: file, mark: .start)
        }
    }
}
