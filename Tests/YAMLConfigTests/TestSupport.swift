import Foundation
@testable import YAMLConfig

/// Parses `text` as the file `f.yaml` and returns a cursor at its root.
func document(_ text: String, environment: [String: String] = [:]) throws -> ConfigNode {
    ConfigNode(try YAMLDocument.parse(text, file: "f.yaml", environment: environment), file: "f.yaml")
}

/// The cursor for the value of the single key `v` in `v: <yaml>`, at path `v`.
func value(_ yaml: String) throws -> ConfigNode {
    let entries = try document("v: \(yaml)").entries()
    guard let first = entries.first else { throw ConfigError("no value", file: "f.yaml", mark: .start) }
    return first.value
}

/// The description of the error `body` throws, or "no error".
func failure(_ body: () throws -> Void) -> String {
    do {
        try body()
        return "no error"
    } catch {
        return "\(error)"
    }
}

/// The message (without position or path) of the ConfigError `body` throws, or "no error".
func failureMessage(_ body: () throws -> Void) -> String {
    do {
        try body()
        return "no error"
    } catch let error as ConfigError {
        return error.message
    } catch {
        return "not a ConfigError: \(error)"
    }
}

/// The path of a file under `Fixtures/`.
func fixturePath(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)").path
}
