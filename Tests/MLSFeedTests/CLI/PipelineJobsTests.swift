import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed
@testable import MLSFeedFixtures

/// `mlsfeed run PIPELINE... --jobs N` (`PipelineJobs`), through the built binary: every pipeline runs once as it
/// would alone, two of one source one after the other, a signal stops them all, the exit code is the worst, and the
/// options that name one pipeline's input or output are refused.
@Suite(.ownThread) struct PipelineJobsTests {
    typealias Machine = JobsFeeds.Machine

    /// `SELECT ...` as rows of text.
    static func rows(_ database: String, _ sql: String) throws -> [[String?]] {
        try Connection(database).execute(sql).rows
    }

    /// The total line's counts over `sources`' truths, for a first load of each.
    static func firstLoadCounts(_ sources: [String]) throws -> String {
        let truths = try sources.map(JobsFeeds.truth)
        func sum(_ count: (FixtureTruth) -> Int) -> Int { truths.reduce(0) { $0 + count($1) } }
        return "read \(sum(\.records)), rejected \(sum(\.rejects)), duplicates \(sum(\.duplicates)); inserted "
            + "\(sum(\.uniqueValid)), updated 0, unchanged 0, stale 0, withdrawn 0; "
    }

    @Test func severalPipelinesRunOnceEachWithTheirSummariesThenATotal() throws {
        let database = try TestDatabase.migrated()
        let machine = try Machine("all", pipelines: [("s1", "s1"), ("s2", "s2"), ("s3", "s3")])
        let run = try machine.start(["s1", "s2", "s3"], ["--jobs", "2", "--no-progress", "--summary-json",
                                                         machine.path("summary.json"), "--metrics-file",
                                                         machine.path("m-{pipeline}.prom")], database: database)
        let result = run.wait()
        #expect(result.status == 0, "\(result.stderr)")
        for source in ["s1", "s2", "s3"] {
            #expect(result.stdout.components(separatedBy: "mlsfeed: pipeline \(source) run ").count == 2,
                    "\(result.stdout)")
        }
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let total = "mlsfeed: 3 pipelines: 3 succeeded; " + (try Self.firstLoadCounts(["s1", "s2", "s3"]))
        #expect(lines.last?.hasPrefix(total) == true, "\(lines.last ?? "")")
        #expect(lines.last?.range(of: #"; \d+\.\d\d s$"#, options: .regularExpression) != nil)

        // Each source loaded once, exactly as its truth says, each its own run in the ledger.
        for source in ["s1", "s2", "s3"] {
            let truth = try JobsFeeds.truth(source)
            #expect(try Self.rows(database, """
                SELECT count(*)::text FROM listings WHERE source = '\(source)' AND off_market_at IS NULL
                """) == [["\(truth.uniqueValid)"]])
        }
        let ledger = try Self.rows(database, "SELECT pipeline, source, status, inserted::text, id::text "
                                       + "FROM ingest_runs ORDER BY pipeline")
        #expect(ledger.map { Array($0.prefix(4)) } == (try ["s1", "s2", "s3"].map {
            [$0, $0, "succeeded", "\(try JobsFeeds.truth($0).uniqueValid)"]
        }))
        // The summary file: every pipeline's unit, in the order given.
        let summary = try #require(try parsedJSON(String(contentsOfFile: machine.path("summary.json"),
                                                         encoding: .utf8)) as? [[String: Any]])
        #expect(summary.map { $0["pipeline"] as? String } == ["s1", "s2", "s3"])
        #expect(summary.map { $0["status"] as? String } == ["succeeded", "succeeded", "succeeded"])
        #expect(summary.map { ($0["run_id"] as? Int).map(String.init) } == ledger.map { $0[4] })
        // Each pipeline's metrics in its own file.
        for source in ["s1", "s2", "s3"] {
            let text = try String(contentsOfFile: machine.path("m-\(source).prom"), encoding: .utf8)
            #expect(text.contains("mlsfeed_last_run_status{pipeline=\"\(source)\",source=\"\(source)\","
                                  + "status=\"succeeded\"} 1\n"), "\(text)")
        }

        // Again, quiet: every input unchanged, nothing printed.
        let again = try machine.start(["s1", "s2", "s3"], ["--jobs", "3", "--no-progress", "--quiet"],
                                      database: database).wait()
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout == "")
        #expect(try Self.rows(database, "SELECT count(*)::text FROM ingest_runs WHERE status = 'unchanged'")
            == [["3"]])
    }

    /// Two pipelines of one source in one invocation run one after the other, never together, while a job runs
    /// the other source's pipeline: with `load.lock_timeout: 0` the second would otherwise find its source busy.
    /// The progress line shows the running ones together.
    @Test func twoPipelinesOfOneSourceRunOneAfterTheOther() throws {
        let database = try TestDatabase.migrated()
        let machine = try Machine("same", pipelines: [("a", "s1"), ("b", "s1"), ("c", "s2")], load: "lock_timeout: 0")
        let run = try machine.start(["a", "b", "c"], ["--jobs", "2", "--progress"], database: database,
                                    environment: machine.pause(at: .fetch))
        // Every run pauses once its input is open, its source's lock held: a and c, never b.
        try JobsFeeds.waitUntil("two runs are running") {
            // Polled from before the schema exists.
            (try? Self.rows(database, "SELECT count(*)::text FROM ingest_runs WHERE status = 'running'")) == [["2"]]
        }
        try run.waitForStderr(matching: #"0 of 3 pipelines done; a: \d+%, \d+ records; c: \d+%, \d+ records"#)
        #expect(try Self.rows(database, "SELECT pipeline FROM ingest_runs ORDER BY pipeline") == [["a"], ["c"]])
        try machine.resume()
        let result = run.wait()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("source busy"), "\(result.stderr)")
        // b started after a ended (and found the input a loaded unchanged).
        #expect(try Self.rows(database, """
            SELECT b.status, (b.started_at >= a.finished_at)::text FROM ingest_runs a, ingest_runs b
            WHERE a.pipeline = 'a' AND b.pipeline = 'b' AND a.status = 'succeeded'
            """) == [["unchanged", "true"]])
        let total = "mlsfeed: 3 pipelines: 3 succeeded; read \(try 2 * JobsFeeds.truth("s1").records)"
        #expect(result.stdout.split(separator: "\n").last?.hasPrefix(total) == true, "\(result.stdout)")
    }

    /// A signal stops every running pipeline (each run recorded `interrupted`), starts no other, and the exit code
    /// is the signal's.
    @Test func aSignalStopsEveryJob() throws {
        let database = try TestDatabase.migrated()
        let machine = try Machine("stop", pipelines: [("a", "s1"), ("c", "s2"), ("d", "s3")])
        let run = try machine.start(["a", "c", "d"], ["--jobs", "2", "--no-progress", "--summary-json",
                                                      machine.path("summary.json")],
                                    database: database, environment: machine.pause(at: .fetch))
        try JobsFeeds.waitUntil("two runs are running") {
            // Polled from before the schema exists.
            (try? Self.rows(database, "SELECT count(*)::text FROM ingest_runs WHERE status = 'running'")) == [["2"]]
        }
        run.signal(SIGINT)
        let result = run.wait()
        #expect(result.status == 130, "\(result.stderr)")
        #expect(try Self.rows(database, "SELECT pipeline, status FROM ingest_runs ORDER BY pipeline")
            == [["a", "interrupted"], ["c", "interrupted"]])
        #expect(try Self.rows(database, "SELECT count(*)::text FROM listings") == [["0"]])
        #expect(result.stderr.contains("mlsfeed: stopping (signal 2); send it again to quit at once\n"))
        let last = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("mlsfeed: 3 pipelines: 2 interrupted, 1 not started (d); read 0, rejected 0, "
                               + "duplicates 0; inserted 0, updated 0, unchanged 0, stale 0, withdrawn 0; "), "\(last)")
        let summary = try #require(try parsedJSON(String(contentsOfFile: machine.path("summary.json"),
                                                         encoding: .utf8)) as? [[String: Any]])
        #expect(summary.map { $0["pipeline"] as? String } == ["a", "c"])
        #expect(summary.map { $0["failure"] as? String } == ["interrupted", "interrupted"])
    }

    /// One pipeline's bad input fails it (exit 1) and not the others; the exit code is the worst, the total names
    /// the failure with the error a run of it alone prints, and a metrics file without {pipeline} holds both.
    @Test func theExitCodeIsTheWorstPipelines() throws {
        let database = try TestDatabase.migrated()
        let machine = try Machine("worst", pipelines: [("bad", "s1"), ("ok", "s2")])
        let feed = machine.path("feeds/s1.xml")
        let text = try String(contentsOfFile: feed, encoding: .utf8)
        try String(text.prefix(text.count / 2)).write(toFile: feed, atomically: true, encoding: .utf8)
        let alone = try machine.start(["bad"], ["--no-progress", "--quiet"], database: database).wait()
        #expect(alone.status == 1, "\(alone.stderr)")
        let error = try #require(alone.stderr.split(separator: "\n").first { $0.hasPrefix(feed + ":") })

        let result = try machine.start(["bad", "ok"], ["--jobs", "2", "--no-progress", "--metrics-file",
                                                       machine.path("all.prom")], database: database).wait()
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("mlsfeed: pipeline ok run "), "\(result.stdout)")
        #expect(result.stderr.contains("mlsfeed: pipeline bad run "), "\(result.stderr)")
        let last = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("mlsfeed: 2 pipelines: 1 succeeded, 1 failed (bad: exit 1, \(error)); read "),
                "\(last)")
        #expect(try Self.rows(database, "SELECT source, count(*)::text FROM listings GROUP BY source")
            == [["s2", "\(try JobsFeeds.truth("s2").uniqueValid)"]])
        let metrics = try String(contentsOfFile: machine.path("all.prom"), encoding: .utf8)
        #expect(metrics.contains("mlsfeed_last_run_failure{pipeline=\"bad\",source=\"s1\",failure=\"input\"} 1\n"),
                "\(metrics)")
        #expect(metrics.contains("mlsfeed_last_run_status{pipeline=\"ok\",source=\"s2\",status=\"succeeded\"} 1\n"),
                "\(metrics)")
    }

    @Test(arguments: [
        (["run", "sample", "syndication", "--input", "x.xml"],
         "error: --input takes one PIPELINE (got 2): it overrides that pipeline's source.input"),
        (["run", "sample", "syndication", "--dry-run", "--output", "x.jsonl"],
         "error: --output takes one PIPELINE (got 2): it writes that pipeline's JSON lines"),
        (["run", "sample", "pipelines/sample.yaml"], "error: pipelines/sample.yaml is given twice"),
        (["run", "sample", "syndication", "--jobs", "0"], "error: --jobs must be a whole number from 1 to 64, got 0"),
        (["run", "sample", "--jobs", "many"], "error: --jobs must be a whole number from 1 to 64, got many"),
        (["run", "sample", "syndication", "--jobs", "65"],
         "error: --jobs must be a whole number from 1 to 64, got 65"),
        (["run", "sample", "syndication", "--dry-run", "--metrics-file", "m.prom"],
         "error: --metrics-file records database runs; a dry run writes no metrics"),
        (["validate", "sample", "syndication"], "error: expected one PIPELINE"),
    ])
    func optionsThatNameOnePipelineAreRefusedWithSeveral(arguments: [String], message: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(message + "\n"), "\(result.stderr)")
    }

    /// Two pipeline files of one name would share ledger rows, summaries and metrics by name: refused.
    @Test func twoPipelinesOfOneNameAreRefused() throws {
        let machine = try Machine("names", pipelines: [("s1", "s1")])
        let copy = machine.path("copy.yaml")
        try FileManager.default.copyItem(atPath: machine.pipeline("s1"), toPath: copy)
        let result = try CLI.run(["run", machine.pipeline("s1"), copy, "--config", machine.path("config.yaml")])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("error: \(machine.pipeline("s1")) and \(copy) are both named s1: the ledger, "
            + "the summaries and the metrics tell pipelines by name; give each its own name:\n"), "\(result.stderr)")
    }
}
