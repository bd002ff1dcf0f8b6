import Foundation
import MLSFeed
import YAMLConfig

/// `mlsfeed`: the command-line front of the pipeline. Exit codes: 0 success, 1 the run failed, 2 usage or config.
let version = "0.1.0"

let usage = """
    mlsfeed \(version) — ingest MLS listing feeds (XML) into PostgreSQL

    usage: mlsfeed <command> [options]

    commands:
      run PIPELINE        run a pipeline: fetch, parse, normalize, validate, dedupe, load
      sweep PIPELINE      withdraw the listings a replicated Web API source no longer has (a key sweep)
      validate PIPELINE   check a pipeline file (and, with --input, its feed) without touching the database
      db start|stop|status|url|migrate
                          manage the embedded PostgreSQL (or migrate the configured database)
      plan PIPELINE       what a run would do (counts, examples, changes, safety rules); writes nothing
      runs [show ID]      list recent runs from the run ledger, or show one in full
      history LISTING_ID  a listing's price and status changes, withdrawals and returns
      rejects [replay]    the rejected records of a run, with reasons and raw fields; replay them
      prune               delete old ledger rows and rejects
      doctor [PIPELINE]   check the config, pipeline, input, database, schema, extensions and disk
      search mls|quick|detailed|near|agent
                          search listings and agents (the SQL search API)
      fixtures generate   write a deterministic synthetic feed and its truth file
      mapping init        write a starter mapping from RESO $metadata or RETS METADATA
      bench-parse FILE    time the parse stage alone on a feed file

    global options:
      --config PATH       project config (default: ./config.yaml, or $MLSFEED_CONFIG)
      --help, -h          help for a command
      --version           print the version

    exit codes: 0 success, 1 the run failed, 2 usage or configuration error, 3 a safety rule refused the run,
      4 the database or network is unavailable (retry later), 130/143 interrupted
    """

/// Writes to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
}

func main() -> Int32 {
    MallocTuning.apply()
    Signals.shared.install()
    var arguments = Array(CommandLine.arguments.dropFirst())
    guard let command = arguments.first else {
        printError(usage)
        return 2
    }
    arguments.removeFirst()
    do {
        switch command {
        case "--version", "version":
            print("mlsfeed \(version)")
            return 0
        case "--help", "-h", "help":
            if let topic = arguments.first, let text = commandUsage[topic] {
                print(text)
            } else {
                print(usage)
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
        default:
            let known = ["run", "validate", "sweep", "plan", "db", "runs", "history", "rejects", "prune", "doctor",
                         "search", "fixtures", "mapping", "bench-parse", "help"]
            let hint = Suggestion.closest(to: command, among: known).map { "; did you mean \($0)?" }
            printError("error: unknown command \(command)\(hint ?? "")\n\n\(usage)")
            return 2
        }
    } catch let error as UsageError {
        printError("\(error)\n\n\(commandUsage[command] ?? usage)")
        return 2
    } catch {
        printError(describe(error))
        return Signals.shared.first.map(Signals.exitCode) ?? exitCode(for: error)
    }
}

exit(main())
