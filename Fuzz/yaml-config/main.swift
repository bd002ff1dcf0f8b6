// Fuzz target: the YAML config loader. The input is a YAML file: parsed by YAMLDocument (libyaml and the tree
// checks), every node read as each scalar type, then checked as a pipeline and as a config.yaml. Every failure
// must be a ConfigError, at a real position when it is about this document.
import FuzzSupport
import MLSFeed
import YAMLConfig

/// The document's name: beside the shipped mappings, so `mapping: mappings/reso.yaml` reads the real file.
let file = "pipelines/fuzz.yaml"
let environment = ["MLS_USER": "etl", "EMPTY": "", "MLSFEED_DATABASE_URL": "postgresql://db.example.com/mls"]

/// Reads every node as every kind of value (each may fail, but only with a ConfigError).
func walk(_ node: ConfigNode) {
    switch node.node.kind {
    case .mapping:
        _ = expectConfigError { try node.keys(allowed: ["name", "source", "type", "from"]) }
        for entry in expectConfigError({ try node.entries() }) ?? [] { walk(entry.value) }
    case .sequence:
        _ = expectConfigError { try node.stringList() }
        for item in expectConfigError({ try node.array() }) ?? [] { walk(item) }
    case .scalar:
        _ = expectConfigError { try node.string() }
        _ = expectConfigError { try node.nonBlankString() }
        _ = expectConfigError { try node.int() }
        _ = expectConfigError { try node.int(in: 1...100_000) }
        _ = expectConfigError { try node.double() }
        _ = expectConfigError { try node.share() }
        _ = expectConfigError { try node.seconds(in: 0...3600) }
        _ = expectConfigError { try node.bool() }
        _ = expectConfigError { try node.oneOf([("a", 1), ("b", 2)]) }
        _ = expectConfigError { try node.stringList() }
    }
}

/// The value of `body`, or nil when it threw the ConfigError it may throw (anything else is a bug).
func expectConfigError<T>(_ body: () throws -> T) -> T? {
    do {
        return try body()
    } catch let error as ConfigError {
        if error.file == file {
            Check.that(error.line >= 1 && error.column >= 1, "error before 1:1: \(error)")
        }
        Check.that(!error.description.isEmpty, "empty message")
        return nil
    } catch {
        Check.that(false, "not a ConfigError: \(type(of: error)): \(error)")
        return nil
    }
}

LibFuzzer.run { bytes in
    guard let tree = expectConfigError({ try YAMLDocument.parse(bytes: bytes, file: file, environment: environment) })
    else { return }
    let root = ConfigNode(tree, file: file)
    walk(root)
    let project = expectConfigError { try ProjectConfig.load(root) } ?? ProjectConfig()
    _ = expectConfigError { try PipelineConfig.load(root, project: project, environment: environment) }
}
