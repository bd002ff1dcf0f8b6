/// The shell completion scripts of `mlsfeed completion bash|zsh`, made from `CommandHelp.all`: the commands, their
/// variants, the options each takes, the values of options with a fixed set, and files where a path or a pipeline
/// goes.
enum CompletionScript {
    /// The bash script: a `complete -F` function.
    static var bash: String {
        var lines = [
            "# bash completion for mlsfeed, made by `mlsfeed completion bash` from the text of `mlsfeed --help`.",
            "# Load it with `source <(mlsfeed completion bash)`, or save it as",
            "# /usr/share/bash-completion/completions/mlsfeed.",
            "",
            "# _mlsfeed_spec COMMAND VARIANT: sets valued (the options that take a value), flags, variants (the words",
            "# that may follow the command), required (whether one must), argument (pipeline, path or nothing) and",
            "# repeats (whether several arguments may follow).",
            "_mlsfeed_spec() {",
            "    valued= flags= variants= required= argument= repeats=",
            "    case $1 in",
        ]
        for command in CommandHelp.all {
            lines.append("    \(command.name))")
            if !command.variants.isEmpty {
                lines.append("        variants=\"\(command.variants.joined(separator: " "))\"")
                if command.variantRequired { lines.append("        required=1") }
            }
            if let kind = command.arguments.first.flatMap({ bashKind($0.value) }) {
                lines.append("        argument=\(kind)")
                if command.arguments.first?.repeats == true { lines.append("        repeats=1") }
            }
            let sets = variantSets(command)
            if sets.count == 1 {
                lines += bashOptions(sets[0].options, indent: "        ")
            } else {
                lines.append("        case $2 in")
                for set in sets {
                    lines.append("        \(set.variant.isEmpty ? "*" : set.variant))")
                    lines += bashOptions(set.options, indent: "            ")
                    lines.append("            ;;")
                }
                lines.append("        esac")
            }
            lines.append("        ;;")
        }
        lines += [
            "    esac",
            "}",
            "",
            "# _mlsfeed_value COMMAND OPTION: completes the value of OPTION.",
            "_mlsfeed_value() {",
            "    case \"$1 $2\" in",
        ]
        for command in CommandHelp.all {
            for option in command.options {
                guard let value = option.value else { continue }
                let pattern = "    \"\(command.name) --\(option.name)\")"
                switch value {
                case .text: continue
                case .path: lines.append(pattern + " _mlsfeed_files ;;")
                case .pipeline: lines.append(pattern + " _mlsfeed_pipelines ;;")
                case .choice(let words):
                    let list = words.joined(separator: " ")
                    lines.append(pattern + " COMPREPLY=($(compgen -W \"\(list)\" -- \"$cur\")) ;;")
                }
            }
        }
        let commands = CommandHelp.all.map(\.name).joined(separator: " ")
        lines += [
            "    esac",
            "}",
            "",
            "_mlsfeed_files() {",
            "    compopt -o filenames 2>/dev/null",
            "    COMPREPLY=($(compgen -f -- \"$cur\"))",
            "}",
            "",
            "# _mlsfeed_pipelines [names]: pipeline files (and directories); with names, also the names in pipelines/.",
            "_mlsfeed_pipelines() {",
            "    compopt -o filenames 2>/dev/null",
            "    local file names=()",
            "    if [[ $1 == names ]]; then",
            "        for file in pipelines/*.yaml pipelines/*.yml; do",
            "            [[ -f $file ]] || continue",
            "            file=${file##*/}",
            "            names+=(\"${file%.*}\")",
            "        done",
            "    fi",
            "    COMPREPLY=($(compgen -W \"${names[*]}\" -- \"$cur\") $(compgen -d -- \"$cur\")",
            "               $(compgen -f -X '!*.yaml' -- \"$cur\") $(compgen -f -X '!*.yml' -- \"$cur\"))",
            "}",
            "",
            "_mlsfeed() {",
            "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}",
            "    local command= variant= word i expect= positionals=0 valued flags variants required argument repeats",
            "    for ((i = 1; i < COMP_CWORD; i++)); do",
            "        word=${COMP_WORDS[i]}",
            "        if [[ -n $expect ]]; then",
            "            expect=",
            "            continue",
            "        fi",
            "        case $word in",
            "        --*=*) ;;",
            "        -*)",
            "            _mlsfeed_spec \"$command\" \"$variant\"",
            "            [[ \" $valued \" == *\" $word \"* ]] && expect=1",
            "            ;;",
            "        *)",
            "            if [[ -z $command ]]; then",
            "                command=$word",
            "                continue",
            "            fi",
            "            _mlsfeed_spec \"$command\" \"$variant\"",
            "            if [[ -z $variant && $positionals -eq 0 && \" $variants \" == *\" $word \"* ]]; then",
            "                variant=$word",
            "            else",
            "                positionals=$((positionals + 1))",
            "            fi",
            "            ;;",
            "        esac",
            "    done",
            "    COMPREPLY=()",
            "    if [[ -z $command ]]; then",
            "        COMPREPLY=($(compgen -W \"\(commands) help --help --version\" -- \"$cur\"))",
            "        return",
            "    fi",
            "    if [[ $command == help ]]; then",
            "        [[ $positionals -eq 0 ]] && COMPREPLY=($(compgen -W \"\(commands)\" -- \"$cur\"))",
            "        return",
            "    fi",
            "    _mlsfeed_spec \"$command\" \"$variant\"",
            "    if [[ -n $expect ]]; then",
            "        _mlsfeed_value \"$command\" \"$prev\"",
            "        return",
            "    fi",
            "    if [[ $cur == -* ]]; then",
            "        COMPREPLY=($(compgen -W \"$valued $flags --help\" -- \"$cur\"))",
            "        return",
            "    fi",
            "    if [[ -z $variant && $positionals -eq 0 && -n $variants ]]; then",
            "        COMPREPLY=($(compgen -W \"$variants\" -- \"$cur\"))",
            "        [[ -n $required ]] && return",
            "    fi",
            "    [[ $positionals -eq 0 || -n $repeats ]] || return",
            "    case $argument in",
            "    pipeline) _mlsfeed_pipelines names ;;",
            "    path) _mlsfeed_files ;;",
            "    esac",
            "}",
            "",
            "complete -F _mlsfeed mlsfeed",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The zsh script: a `#compdef` function of `_arguments` specs.
    static var zsh: String {
        var lines = [
            "#compdef mlsfeed",
            "# zsh completion for mlsfeed, made by `mlsfeed completion zsh` from the text of `mlsfeed --help`.",
            "# Save it as _mlsfeed in a directory of $fpath (before compinit runs).",
            "",
            "_mlsfeed_pipelines() {",
            "  local -a names",
            "  names=(pipelines/*.(yaml|yml)(N:t:r))",
            "  _alternative 'names:pipeline name:compadd -a names' 'files:pipeline file:_files -g \"*.(yaml|yml)\"'",
            "}",
            "",
            "_mlsfeed() {",
            "  local -a commands",
            "  commands=(",
        ]
        for command in CommandHelp.all {
            lines.append("    " + zshQuoted(command.name + ":" + command.summary))
        }
        lines += [
            "    'help:help for a command'",
            "  )",
            "  if (( CURRENT == 2 )); then",
            "    _describe -t commands 'mlsfeed command' commands",
            "    return",
            "  fi",
            "  local command=${words[2]}",
            "  shift words",
            "  (( CURRENT-- ))",
            "  case $command in",
            "  help)",
            "    (( CURRENT == 2 )) && _describe -t commands 'mlsfeed command' commands",
            "    ;;",
        ]
        for command in CommandHelp.all {
            lines.append("  \(command.name))")
            lines += zshCommand(command)
            lines.append("    ;;")
        }
        lines += [
            "  esac",
            "}",
            "",
            "_mlsfeed \"$@\"",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The completion of one command, after its name: its variant, then its options and arguments.
    static func zshCommand(_ command: CommandHelp) -> [String] {
        let sets = variantSets(command)
        let variants = command.variants.joined(separator: " ")
        if command.variants.isEmpty {
            return zshArguments(sets[0].options, arguments: command.arguments, indent: "    ")
        }
        let choose = "'1: :(\(variants))'"
        if sets.count == 1 && !command.variantRequired {
            return zshArguments(sets[0].options, arguments: command.arguments, indent: "    ", first: choose)
        }
        if sets.count == 1 {
            return ["    if (( CURRENT == 2 )); then",
                    "      _values variant \(variants)",
                    "      return",
                    "    fi",
                    "    shift words",
                    "    (( CURRENT-- ))"]
                + zshArguments(sets[0].options, arguments: [], indent: "    ")
        }
        var lines = ["    if (( CURRENT > 2 )) && [[ \" \(variants) \" == *\" ${words[2]} \"* ]]; then",
                     "      local variant=${words[2]}",
                     "      shift words",
                     "      (( CURRENT-- ))",
                     "      case $variant in"]
        for set in sets where !set.variant.isEmpty {
            lines.append("      \(set.variant))")
            lines += zshArguments(set.options, arguments: [], indent: "        ")
            lines.append("        ;;")
        }
        lines += ["      esac", "      return", "    fi"]
        if command.variantRequired {
            lines.append("    (( CURRENT == 2 )) && _values variant \(variants)")
        } else {
            let plain = sets.first { $0.variant.isEmpty }?.options ?? []
            lines += zshArguments(plain, arguments: [], indent: "    ", first: choose)
        }
        return lines
    }

    /// A command's variants with the options each takes: one set when they all take the same.
    static func variantSets(_ command: CommandHelp) -> [(variant: String, options: [CommandHelp.Option])] {
        guard command.options.contains(where: { $0.only != nil }) else { return [("", command.options)] }
        var sets = command.variants.map { ($0, command.options(for: $0)) }
        if !command.variantRequired || command.options.contains(where: { $0.only?.contains("") == true }) {
            sets.append(("", command.options(for: "")))
        } else {
            sets.append(("", command.options.filter { $0.only == nil }))
        }
        return sets
    }

    /// `valued="..."` and `flags="..."` lines.
    static func bashOptions(_ options: [CommandHelp.Option], indent: String) -> [String] {
        let valued = options.filter { $0.value != nil }.map { "--" + $0.name }.joined(separator: " ")
        let flags = options.filter { $0.value == nil }.map { "--" + $0.name }.joined(separator: " ")
        return [indent + "valued=\"\(valued)\"", indent + "flags=\"\(flags)\""]
    }

    /// What a command's first argument completes to in bash, if anything.
    static func bashKind(_ value: CommandHelp.Value) -> String? {
        switch value {
        case .pipeline: "pipeline"
        case .path: "path"
        case .text, .choice: nil
        }
    }

    /// An `_arguments` call with a spec per option and argument.
    static func zshArguments(_ options: [CommandHelp.Option], arguments: [CommandHelp.Argument], indent: String,
                             first: String? = nil) -> [String] {
        var specs = options.map { option -> String in
            let description = zshEscaped(option.meaning)
            guard let value = option.value else { return zshQuoted("--\(option.name)[\(description)]") }
            return zshQuoted("--\(option.name)=[\(description)]:\(zshEscaped(value.placeholder)):")
                + zshAction(value)
        }
        specs.append("'(- *)--help[show the help]'")
        if let first { specs.append(first) }
        let offset = first == nil ? 1 : 2
        for (index, argument) in arguments.enumerated() {
            let position = argument.repeats ? "*" : String(index + offset)
            specs.append(zshQuoted("\(position):\(zshEscaped(argument.name)):") + zshAction(argument.value))
        }
        return [indent + "_arguments -s \\"] + specs.enumerated().map { index, spec in
            indent + "  " + spec + (index == specs.count - 1 ? "" : " \\")
        }
    }

    /// The action completing a value, quoted for the end of a spec.
    static func zshAction(_ value: CommandHelp.Value) -> String {
        switch value {
        case .text: "' '"
        case .path: "_files"
        case .pipeline(let name): name == "PIPELINE" ? "_mlsfeed_pipelines" : "'_files -g \"*.(yaml|yml)\"'"
        case .choice(let words): zshQuoted("(" + words.joined(separator: " ") + ")")
        }
    }

    /// Brackets and colons escaped for an `_arguments` description.
    static func zshEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "[]:\\".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// `text` in single quotes.
    static func zshQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
