import MLSFeed

/// `mlsfeed prune`: deletes old ledger rows and rejects in batches; never listings, agents or their history.
enum PruneCommand {
    static func main(_ args: [String]) throws -> Int32 {
        let parsed = try Arguments(args, command: CommandHelp.prune)
        if let unexpected = parsed.positionals.first {
            throw UsageError(message: "unexpected argument \(unexpected)")
        }
        func age(_ flag: String) throws -> RetentionAge? {
            try parsed[flag].map { text in
                guard let age = RetentionAge(text) else {
                    throw UsageError(message: "--\(flag) expects an age like 180d, 12h or 2w, got \(text)")
                }
                return age
            }
        }
        let policy = PrunePolicy(runsOlderThan: try age("runs-older-than"),
                                 rejectsOlderThan: try age("rejects-older-than"))
        guard policy.runsOlderThan != nil || policy.rejectsOlderThan != nil else {
            throw UsageError(message: "say what to prune: --runs-older-than AGE and/or --rejects-older-than AGE")
        }
        let context = try Context(configFlag: parsed["config"])
        let dryRun = parsed.has("dry-run")
        let connection = try context.ledgerConnection(flag: parsed["database"], writes: !dryRun)
        let result = try Ledger(connection).prune(policy, dryRun: dryRun)
        let verb = dryRun ? "would delete" : "deleted"
        var line = "prune\(dryRun ? " (dry run)" : ""): \(verb) \(result.runs) \(result.runs == 1 ? "run" : "runs")"
            + " and \(result.rejects) \(result.rejects == 1 ? "reject" : "rejects")"
        if result.keptRuns > 0 {
            line += "; kept \(result.keptRuns) old \(result.keptRuns == 1 ? "run" : "runs") that later runs or the "
                + "metrics still need (each pipeline's last run and last success, each source's last successful "
                + "and newest dumps)"
        }
        print(line)
        return 0
    }
}
