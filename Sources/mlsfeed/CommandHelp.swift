/// One command's help: its usage lines, what it does, its arguments and options, and the exit codes it can return.
///
/// `--help`, `COMMAND --help`, the man page (`mlsfeed man`) and the shell completions (`mlsfeed completion`) are
/// rendered from `CommandHelp.all`, and every command parses its options from its entry
/// (`Arguments(_:command:variant:)`): an option is accepted exactly when its help describes it.
struct CommandHelp {
    /// The version `--version` prints.
    static let version = "0.1.0"

    /// What an option or argument takes: how it is shown, and what a shell may complete it with.
    enum Value {
        /// Free text, shown as its placeholder (`N`, `TEXT`, `URL`).
        case text(String)
        /// A path to a file or directory, shown as its placeholder (`PATH`, `FILE`).
        case path(String)
        /// A pipeline file; as a command's PIPELINE argument also a name in `pipelines/`.
        case pipeline(String)
        /// One of these words.
        case choice([String])

        /// How the value is written in a usage line or an option's line.
        var placeholder: String {
            switch self {
            case .text(let name), .path(let name), .pipeline(let name): name
            case .choice(let words): words.joined(separator: "|")
            }
        }
    }

    /// An option: `--name`, its value (none for a flag) and what it does.
    struct Option {
        /// The name without its dashes.
        var name: String
        /// What it takes; nil for a flag.
        var value: Value?
        var meaning: String
        /// The variants (see `CommandHelp.variants`) that take it; nil: every one. "" is the command without one.
        var only: Set<String>?

        init(_ name: String, _ value: Value? = nil, _ meaning: String, only: Set<String>? = nil) {
            self.name = name
            self.value = value
            self.meaning = meaning
            self.only = only
        }

        /// `--name VALUE`, as the help shows it.
        var label: String { "--\(name)" + (value.map { " \($0.placeholder)" } ?? "") }
    }

    /// A positional argument, for the help and for the completions.
    struct Argument {
        var name: String
        var value: Value
        var meaning: String
        /// Whether it may be given more than once (`PIPELINE...`).
        var repeats: Bool

        init(_ name: String, _ value: Value, _ meaning: String, repeats: Bool = false) {
            self.name = name
            self.value = value
            self.meaning = meaning
            self.repeats = repeats
        }

        /// `NAME`, or `NAME...` when it repeats, as the help shows it.
        var label: String { name + (repeats ? "..." : "") }
    }

    /// An exit code the command can return, with what it means there when the table's words are too general.
    struct Exit {
        var code: ExitCode
        var meaning: String?

        init(_ code: ExitCode, _ meaning: String? = nil) {
            self.code = code
            self.meaning = meaning
        }

        /// The command's own words, else the table's.
        var text: String { meaning ?? code.meaning }
    }

    /// The command's name (`run`, `bench-parse`).
    var name: String
    /// How `mlsfeed --help` lists it (`runs [show ID]`).
    var heading: String
    /// One line for the command list.
    var summary: String
    /// Usage lines, each after `mlsfeed `.
    var usage: [String]
    /// Words that may follow the name and choose what the command does (`replay`, `show`, `start`, `near`).
    var variants: [String] = []
    /// Whether one of `variants` must follow the name.
    var variantRequired = false
    var arguments: [Argument] = []
    /// Paragraphs, separated by an empty line.
    var description: String
    var options: [Option]
    var exits: [Exit]
    /// Spellings the command no longer takes, with the option that replaced each: refused with a did-you-mean.
    var renamed: [String: String] = [:]

    /// The options `variant` takes ("" for the command without one).
    func options(for variant: String) -> [Option] {
        options.filter { $0.only == nil || $0.only!.contains(variant) }
    }

    /// The entry of `name`, if there is such a command.
    static func named(_ name: String) -> CommandHelp? {
        all.first { $0.name == name }
    }
}
