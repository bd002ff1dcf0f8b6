/// The manual page `mlsfeed(1)` in roff (the `man` macros), made from `CommandHelp.all`: the same usage lines,
/// descriptions, options and exit codes as `--help`.
enum ManPage {
    /// The whole page.
    static var roff: String {
        var lines = [
            ".TH MLSFEED 1 \"\" \"mlsfeed \(CommandHelp.version)\" \"User Commands\"",
            ".\\\" Made by `mlsfeed man` from the text of `mlsfeed --help`; edit that, not this.",
            ".nh",
            ".ad l",
            ".SH NAME",
            "mlsfeed \\- \(escape(CommandHelp.tagline))",
            ".SH SYNOPSIS",
        ]
        for (index, command) in CommandHelp.all.enumerated() {
            if index > 0 { lines.append(".br") }
            lines.append(".B mlsfeed")
            lines.append(escape(command.heading) + (command.options.isEmpty ? "" : " [options]"))
        }
        lines += [".SH DESCRIPTION"] + description.map(paragraph)
        lines.append(".SH COMMANDS")
        for command in CommandHelp.all {
            lines += section(command)
        }
        lines.append(".SH GLOBAL OPTIONS")
        for (label, meaning) in CommandHelp.globalOptions {
            lines += [".TP", ".B " + escape(label), escape(meaning)]
        }
        lines.append(".SH EXIT STATUS")
        for code in ExitCode.allCases {
            lines += [".TP", ".B \(code.rawValue)", escape(code.meaning)]
        }
        lines += [".SH ENVIRONMENT"] + environment.flatMap { [".TP", ".B " + escape($0.0), escape($0.1)] }
        lines += [".SH FILES"] + files.flatMap { [".TP", ".I " + escape($0.0), escape($0.1)] }
        lines += [".SH SEE ALSO", escape(seeAlso)]
        return lines.joined(separator: "\n") + "\n"
    }

    /// One command: its usage lines, description, arguments and options, exit codes.
    static func section(_ command: CommandHelp) -> [String] {
        var lines = [".SS " + quoted(command.name)]
        for (index, usage) in command.usage.enumerated() {
            if index > 0 { lines.append(".br") }
            lines.append(".B mlsfeed")
            lines.append(escape(usage))
        }
        lines += command.paragraphs.map(paragraph)
        for argument in command.arguments {
            lines += [".TP", ".I " + escape(argument.label), escape(argument.meaning)]
        }
        for option in command.options {
            var head = ".B " + escape("--" + option.name)
            if let value = option.value {
                head = ".BI " + quoted("--" + option.name + " ") + " " + quoted(value.placeholder)
            }
            lines += [".TP", head, escape(option.meaning)]
        }
        lines += [".PP", "Exit codes:"]
        for exit in command.exits {
            lines += [".TP", ".B \(exit.code.rawValue)", escape(exit.text)]
        }
        return lines
    }

    /// What mlsfeed is, above the commands.
    static let description = [
        "mlsfeed reads the listing feeds MLS vendor servers publish (label/key/value triples, RETS COMPACT dumps, "
            + "nested XML such as syndication feeds, RETS STANDARD-XML and CREA DDF, and RESO Web API JSON, from "
            + "files, standard input or HTTP) and loads them into PostgreSQL as typed listings and agents that a "
            + "property-search application queries through SQL search functions.",
        "A pipeline file (pipelines/NAME.yaml) names the source, the format, the mapping of the feed's fields to "
            + "columns, and how to load. Every run streams its input in flat memory, rejects bad records with "
            + "their reasons and raw fields, loads in one transaction, and is recorded in a run ledger. A failed "
            + "run leaves the database at its last good state; running it again finishes the job.",
    ]

    static let environment = [
        ("MLSFEED_CONFIG", "the project config file, when --config is not given"),
        ("MLSFEED_DATABASE_URL", "the database, when --database is not given"),
        ("PGHOST, PGDATABASE, PGPORT, PGUSER, PGSERVICE", "libpq's variables: when one is set, libpq's defaults "
            + "and ~/.pgpass choose the database"),
    ]

    static let files = [
        ("config.yaml", "the project's defaults: database, data directory, log format, timeouts, metrics file"),
        ("pipelines/NAME.yaml", "a pipeline; pipelines/mappings/ holds the mappings"),
        (".mlsfeed/", "the data directory: the embedded PostgreSQL cluster and the HTTP spool"),
    ]

    static let seeAlso = "psql(1). The project's README.md and docs/ (formats, mappings, data model, operations) "
        + "describe every setting, format and table."

    /// A paragraph of running text.
    static func paragraph(_ text: String) -> String {
        ".PP\n" + escape(text)
    }

    /// `text` as roff running text: backslashes and dashes escaped, no line that starts as a request.
    static func escape(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }

    /// A macro argument in double quotes (a quote inside it doubled).
    static func quoted(_ text: String) -> String {
        "\"" + escape(text).replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
