extension CommandHelp {
    /// The widest line of the help texts.
    static let width = 116
    /// Where an option's meaning starts.
    static let meaningColumn = 24

    /// What `mlsfeed --help` prints: the commands, the global options and the exit codes.
    static var overview: String {
        var lines = [
            "mlsfeed \(version): \(tagline)",
            "",
            "usage: mlsfeed COMMAND [options]",
            "       mlsfeed COMMAND --help | mlsfeed help COMMAND | mlsfeed --version",
            "",
            "commands:",
        ]
        for command in all {
            lines += entry(command.heading, command.summary)
        }
        lines += ["", "global options:"]
        for (label, meaning) in globalOptions {
            lines += entry(label, meaning)
        }
        lines += ["", "exit codes:"]
        lines += exitLines(ExitCode.allCases.map { Exit($0) })
        return lines.joined(separator: "\n")
    }

    /// What mlsfeed is, in one line.
    static let tagline = "ingest MLS listing feeds (RETS, triples, nested XML, RESO Web API JSON) into PostgreSQL"

    /// The options every command understands.
    static let globalOptions = [
        ("--config PATH", config.meaning),
        ("--help, -h", "help for a command"),
        ("--version", "print the version"),
    ]

    /// What `mlsfeed COMMAND --help` prints: usage, description, arguments and options, exit codes.
    var text: String {
        var lines = usage.enumerated().flatMap { index, line in
            Self.wrapUsage((index == 0 ? "usage: " : "       ") + "mlsfeed " + line)
        }
        for paragraph in paragraphs {
            lines.append("")
            lines += Self.wrap(paragraph, width: Self.width, indent: "  ")
        }
        if !arguments.isEmpty || !options.isEmpty {
            lines.append("")
            for argument in arguments {
                lines += Self.entry(argument.label, argument.meaning)
            }
            for option in options {
                lines += Self.entry(option.label, option.meaning)
            }
        }
        lines += ["", "exit codes:"]
        lines += Self.exitLines(exits)
        return lines.joined(separator: "\n")
    }

    /// The description's paragraphs.
    var paragraphs: [String] {
        description.components(separatedBy: "\n\n").map { $0.replacingOccurrences(of: "\n", with: " ") }
    }

    /// `  label   meaning`, the meaning wrapped at `meaningColumn`; on a line of its own below a long label.
    static func entry(_ label: String, _ meaning: String) -> [String] {
        let indent = String(repeating: " ", count: meaningColumn)
        var wrapped = wrap(meaning, width: width, indent: indent)
        let head = "  " + label
        if head.count + 2 <= meaningColumn {
            wrapped[0] = head + String(repeating: " ", count: meaningColumn - head.count)
                + wrapped[0].dropFirst(meaningColumn)
            return wrapped
        }
        return [head] + wrapped
    }

    /// `  code  meaning` for each exit code.
    static func exitLines(_ exits: [Exit]) -> [String] {
        exits.flatMap { exit -> [String] in
            var wrapped = wrap(exit.text, width: width, indent: "       ")
            let code = "  \(exit.code.rawValue)"
            wrapped[0] = code + String(repeating: " ", count: 7 - code.count) + wrapped[0].dropFirst(7)
            return wrapped
        }
    }

    /// A usage line in lines of at most `width` characters, broken between bracketed groups, each continuation
    /// indented under the first option.
    static func wrapUsage(_ line: String) -> [String] {
        guard line.count > width else { return [line] }
        // The words outside brackets, and where the options start.
        var words: [String] = []
        var depth = 0
        var word = ""
        for character in line {
            if character == " " && depth == 0 {
                if !word.isEmpty { words.append(word) }
                word = ""
                continue
            }
            if character == "[" { depth += 1 }
            if character == "]" { depth -= 1 }
            word.append(character)
        }
        if !word.isEmpty { words.append(word) }
        let margin = String(repeating: " ", count: line.prefix { $0 == " " }.count)
        let head = words.prefix { !$0.hasPrefix("[") && !$0.hasPrefix("-") }
        let indent = String(repeating: " ", count: margin.count + head.joined(separator: " ").count + 1)
        var lines: [String] = []
        var current = margin + head.joined(separator: " ")
        for word in words.dropFirst(head.count) {
            if current.count + 1 + word.count > width && current.count > indent.count {
                lines.append(current)
                current = indent + word
            } else {
                current += " " + word
            }
        }
        lines.append(current)
        return lines
    }

    /// `text` in lines of at most `width` characters (a longer word stands alone), each starting with `indent`.
    static func wrap(_ text: String, width: Int, indent: String) -> [String] {
        var lines: [String] = []
        var line = indent
        for word in text.split(separator: " ") {
            if line.count > indent.count && line.count + 1 + word.count > width {
                lines.append(line)
                line = indent
            }
            line += (line.count > indent.count ? " " : "") + word
        }
        lines.append(line)
        return lines
    }
}
