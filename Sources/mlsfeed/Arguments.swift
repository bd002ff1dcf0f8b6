import MLSFeed
import YAMLConfig

/// A usage mistake on the command line: exit code 2, with the command's usage line.
struct UsageError: Error, CustomStringConvertible {
    var message: String
    var description: String { "error: \(message)" }
}

/// Hand-written argument parsing: positionals, `--flag`, `--option value` and `--option=value`.
struct Arguments {
    private(set) var positionals: [String] = []
    private var options: [String: String] = [:]
    private var flags: Set<String> = []

    /// Parses `arguments` knowing which options take a value and which are flags; anything else is a usage error.
    init(_ arguments: [String], options valued: Set<String>, flags known: Set<String>) throws {
        var i = 0
        var onlyPositionals = false
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            if onlyPositionals || !argument.hasPrefix("--") || argument == "-" {
                if argument.hasPrefix("-") && argument != "-" && !onlyPositionals && argument != "-h" {
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
                let all = Array(valued) + Array(known)
                let hint = Suggestion.closest(to: name, among: all.sorted()).map { "; did you mean --\($0)?" } ?? ""
                throw UsageError(message: "unknown option --\(name)\(hint)")
            }
        }
    }

    subscript(option: String) -> String? { options[option] }

    func has(_ flag: String) -> Bool { flags.contains(flag) }
}
