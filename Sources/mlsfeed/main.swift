import Foundation
import MLSFeed
import YAMLConfig

// `mlsfeed`: the command-line front of the pipeline. Its commands, options and exit codes are `CommandHelp.all` and
// `ExitCode`, which `--help`, the man page and the completions print.

/// Writes to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
}

func main() -> Int32 {
    MallocTuning.apply()
    Signals.shared.install()
    var arguments = Array(CommandLine.arguments.dropFirst())
    DatabaseArgumentScrub.apply()
    guard let command = arguments.first else {
        printError(CommandHelp.overview)
        return ExitCode.usage.rawValue
    }
    arguments.removeFirst()
    let help = CommandHelp.named(command)
    if let help, arguments.first == "--help" || arguments.first == "-h" {
        print(help.text)
        return ExitCode.success.rawValue
    }
    do {
        switch command {
        case "--version", "version":
            print("mlsfeed \(CommandHelp.version)")
            return 0
        case "--help", "-h", "help":
            if let topic = arguments.first {
                guard let text = CommandHelp.named(topic)?.text else {
                    throw UsageError(message: "no command \(topic)" + hint(topic))
                }
                print(text)
            } else {
                print(CommandHelp.overview)
            }
            return 0
        case "run": return try RunCommand.main(arguments, validateOnly: false)
        case "validate": return try RunCommand.main(arguments, validateOnly: true)
        case "sweep": return try SweepCommand.main(arguments)
        case "db": return try DBCommand.main(arguments)
        case "plan": return try PlanCommand.main(arguments)
        case "runs": return try RunsCommand.main(arguments)
        case "history": return try HistoryCommand.main(arguments)
        case "rejects": return try RejectsCommand.main(arguments)
        case "prune": return try PruneCommand.main(arguments)
        case "doctor": return try DoctorCommand.main(arguments)
        case "search": return try SearchCommand.main(arguments)
        case "fixtures": return try FixturesCommand.main(arguments)
        case "mapping": return try MappingCommand.main(arguments)
        case "bench-parse": return try BenchParseCommand.main(arguments)
        case "completion": return try completion(arguments)
        case "man":
            _ = try Arguments(arguments, command: CommandHelp.man)
            if let extra = arguments.first { throw UsageError(message: "unexpected argument \(extra)") }
            print(ManPage.roff, terminator: "")
            return 0
        default:
            printError("error: unknown command \(command)\(hint(command))\n\n\(CommandHelp.overview)")
            return ExitCode.usage.rawValue
        }
    } catch is HelpRequested {
        print(help?.text ?? CommandHelp.overview)
        return ExitCode.success.rawValue
    } catch let error as UsageError {
        printError("\(error)\n\n\(help?.text ?? CommandHelp.overview)")
        return ExitCode.usage.rawValue
    } catch {
        printError(describe(error))
        return Signals.shared.first.map(Signals.exitCode) ?? exitCode(for: error)
    }
}

/// `; did you mean COMMAND?` for a word close to a command's name, else nothing.
func hint(_ word: String) -> String {
    Suggestion.closest(to: word, among: CommandHelp.all.map(\.name) + ["help"]).map { "; did you mean \($0)?" } ?? ""
}

/// `mlsfeed completion bash|zsh`.
func completion(_ arguments: [String]) throws -> Int32 {
    let parsed = try Arguments(arguments, command: CommandHelp.completion)
    guard parsed.positionals.count == 1 else { throw UsageError(message: "expected bash or zsh") }
    switch parsed.positionals[0] {
    case "bash": print(CompletionScript.bash, terminator: "")
    case "zsh": print(CompletionScript.zsh, terminator: "")
    case let other: throw UsageError(message: "no completion for \(other); expected bash or zsh")
    }
    return 0
}

exit(main())
