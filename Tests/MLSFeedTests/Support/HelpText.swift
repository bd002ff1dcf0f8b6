import Foundation

/// A command's `--help` as the built binary prints it, read back into its parts.
struct HelpText {
    /// The command's name (`run`, `bench-parse`).
    var command: String
    /// The whole text.
    var text: String
    /// The usage lines, continuations joined, without `usage: `.
    var usage: [String]
    /// The options' names (without dashes), whether each takes a value, in the order shown.
    var options: [(name: String, takesValue: Bool)]
    /// The exit codes and what each means (continuations joined).
    var exits: [(code: Int32, meaning: String)]

    /// Runs `mlsfeed COMMAND --help` and reads it.
    init(_ command: String) throws {
        let result = try CLI.run([command, "--help"])
        guard result.status == 0 else { throw HelpError("mlsfeed \(command) --help exited \(result.status)") }
        self.init(command: command, text: result.stdout)
    }

    init(command: String, text: String) {
        self.command = command
        self.text = text
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        usage = []
        for line in lines.prefix(while: { !$0.isEmpty }) {
            if line.hasPrefix("usage: ") || line.hasPrefix("       mlsfeed ") {
                usage.append(line.replacingOccurrences(of: "usage: ", with: "").trimmingCharacters(in: .whitespaces))
            } else if !usage.isEmpty {
                usage[usage.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
            }
        }
        options = lines.compactMap { line in
            guard line.hasPrefix("  --") else { return nil }
            let label = line.dropFirst(2).prefix { $0 != " " }
            let rest = line.dropFirst(2 + label.count)
            // A value follows the name after one space; the meaning after two or more (or on the next line).
            let takesValue = rest.hasPrefix(" ") && !rest.hasPrefix("  ")
            return (String(label.dropFirst(2)), takesValue)
        }
        exits = []
        if let start = lines.firstIndex(of: "exit codes:") {
            for line in lines[(start + 1)...] where !line.isEmpty {
                let fields = line.split(separator: " ", maxSplits: 1)
                if line.hasPrefix("       ") && !exits.isEmpty {
                    exits[exits.count - 1].meaning += " " + line.trimmingCharacters(in: .whitespaces)
                } else if fields.count == 2, let code = Int32(fields[0]) {
                    exits.append((code, fields[1].trimmingCharacters(in: .whitespaces)))
                }
            }
        }
    }

    /// The commands `mlsfeed --help` lists, with the words that may follow each (its variants; "" when it may stand
    /// alone).
    static func commands() throws -> [(name: String, variants: [String])] {
        let overview = try CLI.run(["--help"]).stdout
        let lines = overview.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: "commands:") else { throw HelpError("no commands: in --help") }
        return lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { line in
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
            // The heading ends where the summary starts, two spaces on (or the line does).
            let heading = line.dropFirst(2).components(separatedBy: "  ")[0]
            let words = heading.split(separator: " ").map(String.init)
            guard let second = words.dropFirst().first else { return (words[0], [""]) }
            let bare = second.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            let variants = bare.split(separator: "|").map(String.init)
            guard variants.allSatisfy({ $0.allSatisfy { $0.isLowercase || $0 == "-" } }) else {
                return (words[0], [""])
            }
            return (words[0], second.hasPrefix("[") ? [""] + variants : variants)
        }
    }

    /// Runs of whitespace as one space, trimmed.
    static func normalized(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

/// The help did not read as expected.
struct HelpError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
