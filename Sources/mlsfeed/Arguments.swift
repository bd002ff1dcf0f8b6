import Foundation
import MLSFeed
import YAMLConfig

/// A usage mistake on the command line: exit code 2, with the command's usage line.
struct UsageError: Error, CustomStringConvertible {
    var message: String
    var description: String { "error: \(message)" }
}

/// `--help` or `-h` among a command's arguments (all of which parsed): main prints the command's help, exit 0.
struct HelpRequested: Error {}

/// Hand-written argument parsing: positionals, `--flag`, `--option value` and `--option=value`.
struct Arguments {
    private(set) var positionals: [String] = []
    private var options: [String: String] = [:]
    private var flags: Set<String> = []

    /// Parses `arguments` with the options `command`'s help gives `variant` ("" for the command without one):
    /// anything else is a usage error, an old spelling one that names its replacement. Throws `HelpRequested` for
    /// `--help` or `-h` once everything else parsed.
    init(_ arguments: [String], command: CommandHelp, variant: String = "") throws {
        let known = command.options(for: variant)
        try self.init(arguments, options: Set(known.filter { $0.value != nil }.map(\.name)),
                      flags: Set(known.filter { $0.value == nil }.map(\.name)).union(["help"]),
                      renamed: command.renamed)
        if has("help") { throw HelpRequested() }
    }

    /// Parses `arguments` knowing which options take a value and which are flags.
    private init(_ arguments: [String], options valued: Set<String>, flags known: Set<String>,
                 renamed: [String: String]) throws {
        var i = 0
        var onlyPositionals = false
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            if argument == "-h" && !onlyPositionals {
                flags.insert("help")
                continue
            }
            if onlyPositionals || !argument.hasPrefix("--") || argument == "-" {
                if argument.hasPrefix("-") && argument != "-" && !onlyPositionals {
                    throw UsageError(message: "unknown option \(argument)")
                }
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let eq = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if valued.contains(name) {
                if let inlineValue {
                    options[name] = inlineValue
                } else {
                    guard i < arguments.count else { throw UsageError(message: "--\(name) needs a value") }
                    options[name] = arguments[i]
                    i += 1
                }
            } else if known.contains(name) {
                guard inlineValue == nil else { throw UsageError(message: "--\(name) takes no value") }
                flags.insert(name)
            } else {
                let all = (Array(valued) + Array(known)).filter { $0 != "help" }.sorted()
                let hint = (renamed[name] ?? Suggestion.closest(to: name, among: all))
                    .map { "; did you mean --\($0)?" } ?? ""
                throw UsageError(message: "unknown option --\(name)\(hint)")
            }
        }
    }

    subscript(option: String) -> String? { options[option] }

    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The pipeline file an option names (`--pipeline PATH`): a file, not a name; a name gets the path it meant.
    func pipelineFile(_ option: String) throws -> String? {
        guard let path = self[option] else { return nil }
        if FileManager.default.fileExists(atPath: path) { return path }
        if !path.contains("/"), let file = ["pipelines/\(path).yaml", "pipelines/\(path).yml"]
            .first(where: FileManager.default.fileExists(atPath:)) {
            throw UsageError(message: "--\(option) takes a pipeline file, not a name; did you mean --\(option) "
                + "\(file)?")
        }
        throw UsageError(message: "--\(option) \(path): no such pipeline file")
    }
}
