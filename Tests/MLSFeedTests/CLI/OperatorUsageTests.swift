import Foundation
import Testing

/// Usage mistakes of the operators' commands exit 2 and name the flag, before any database is touched.
@Suite(.ownThread) struct OperatorUsageTests {
    @Test(arguments: [
        (["runs", "--limit", "0"], "error: --limit must be a positive integer, got 0"),
        (["runs", "--format", "xml"], "error: --format must be table or json, got xml"),
        (["runs", "5"], "error: unexpected argument 5; did you mean `runs show 5`?"),
        (["runs", "show"], "error: runs show needs one run ID"),
        (["runs", "show", "abc"], "error: runs show expects a run ID (a positive integer), got abc"),
        (["runs", "show", "3", "--limit", "2"], "error: --limit lists runs; runs show takes a run ID only"),
        (["history"], "error: missing LISTING_ID"),
        (["history", "1", "2"], "error: expected one LISTING_ID"),
        (["history", "1", "--format", "jsonl"], "error: --format must be table or json, got jsonl"),
        (["history", "1", "--sorce", "x"], "error: unknown option --sorce; did you mean --source?"),
        (["rejects", "--run", "1", "--last"], "error: --run and --last exclude each other"),
        (["rejects", "--run", "x"], "error: --run expects a run ID (a positive integer), got x"),
        (["rejects", "--run", "1", "--name", "sample"],
         "error: --name chooses the last run; --run names one already"),
        (["rejects", "--format", "json"], "error: --format must be table or jsonl, got json"),
        (["rejects", "--reason", ""], "error: --reason needs some text to look for"),
        (["rejects", "--lats"], "error: unknown option --lats; did you mean --last?"),
        (["rejects", "replay"], "error: replay needs --run ID"),
        (["rejects", "replay", "--run", "0"], "error: --run expects a run ID (a positive integer), got 0"),
        (["rejects", "replay", "--run", "1", "--last"], "error: unknown option --last"),
        (["rejects", "replay", "3"], "error: unexpected argument 3"),
        (["plan"], "error: missing PIPELINE"),
        (["plan", "sample", "other"], "error: expected one PIPELINE"),
        (["plan", "sample", "--format", "jsonl"], "error: --format must be table or json, got jsonl"),
        (["plan", "sample", "--mode", "nightly"], "error: --mode must be full or incremental, got nightly"),
        (["plan", "sample", "--dry-run"], "error: unknown option --dry-run"),
        (["prune"], "error: say what to prune: --runs-older-than AGE and/or --rejects-older-than AGE"),
        (["prune", "--runs-older-than", "180"],
         "error: --runs-older-than expects an age like 180d, 12h or 2w, got 180"),
        (["prune", "--rejects-older-than", "0d"],
         "error: --rejects-older-than expects an age like 180d, 12h or 2w, got 0d"),
        (["prune", "--dry-run=yes"], "error: --dry-run takes no value"),
        (["doctor", "sample", "other"], "error: expected at most one PIPELINE"),
        (["doctor", "--input", "feed.xml"], "error: --input needs a PIPELINE to read it with"),
        (["run", "sample", "--dry-run", "--metrics-file", "m.prom"],
         "error: --metrics-file records database runs; a dry run writes no metrics"),
        (["run", "sample", "--metrics-file", "/nonexistent-dir/m.prom", "--database", "host=/nonexistent"],
         "error: --metrics-file /nonexistent-dir/m.prom: cannot write there (No such file or directory)"),
    ])
    func mistakesExitTwoNamingTheFlag(arguments: [String], message: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(message + "\n"), "\(result.stderr)")
        #expect(result.stderr.contains("usage: mlsfeed \(arguments[0])"))
    }

    @Test(arguments: ["runs", "history", "rejects", "prune", "doctor", "plan"])
    func helpShowsTheUsage(command: String) throws {
        let result = try CLI.run([command, "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("usage: mlsfeed \(command)"))
        #expect(try CLI.run(["--help"]).stdout.contains("\n  \(command)"))
    }
}
