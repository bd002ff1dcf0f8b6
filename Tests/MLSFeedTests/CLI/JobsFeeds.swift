import Foundation
import Postgres
import Testing
@testable import MLSFeed
@testable import MLSFeedFixtures

/// Small sources for runs of several pipelines: source `sN` is a generated triples feed of 200 listings (seed N,
/// source id `sN`) with its truth, generated once for the test process. A `Machine` is what one worker machine has:
/// a directory of its own with its config.yaml (its own `data_dir`, so its own spool), its own copy of the feeds it
/// loads and a pipeline file for each, all run by the built binary against one database.
enum JobsFeeds {
    static let listings = 200
    static let sources = ["s1", "s2", "s3", "s4"]

    /// The generated feeds (`sN.xml`) and their truths (`sN.truth.json`).
    static let generated: Result<URL, any Error> = Result {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("jobs-feeds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (index, source) in sources.enumerated() {
            var options = FixtureOptions(listings: listings, output: dir.appendingPathComponent("\(source).xml").path,
                                         seed: UInt64(index + 1))
            options.source = source
            _ = try FixtureGenerator.generate(options)
        }
        return dir
    }

    /// The truth of source `source`'s feed.
    static func truth(_ source: String) throws -> FixtureTruth {
        let path = try generated.get().appendingPathComponent("\(source).truth.json")
        return try JSONDecoder().decode(FixtureTruth.self, from: Data(contentsOf: path))
    }

    /// One worker machine's directory: `config.yaml` (data_dir `data/`), `feeds/` and `pipelines/`.
    final class Machine {
        let dir: URL

        /// A machine with a pipeline file for each `(pipeline, source)`, each loading its own copy of the source's
        /// feed in full mode, with `load` settings added (`lock_timeout: 1`).
        init(_ name: String, pipelines: [(name: String, source: String)], load: String = "") throws {
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("jobs-\(name)-\(UUID().uuidString)")
            let fm = FileManager.default
            for sub in ["feeds", "pipelines", "data"] {
                try fm.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
            }
            try "data_dir: \(dir.path)/data\n".write(to: dir.appendingPathComponent("config.yaml"), atomically: true,
                                                      encoding: .utf8)
            let mapping = CLI.packageRoot.appendingPathComponent("pipelines/mappings/servlet-triples.yaml").path
            for (pipeline, source) in pipelines {
                let feed = dir.appendingPathComponent("feeds/\(source).xml")
                if !fm.fileExists(atPath: feed.path) {
                    try fm.copyItem(at: try generated.get().appendingPathComponent("\(source).xml"), to: feed)
                }
                try """
                    name: \(pipeline)
                    source: { id: \(source), input: \(feed.path), time_zone: America/Los_Angeles }
                    format: { type: triples }
                    mapping: \(mapping)
                    load: { mode: full\(load.isEmpty ? "" : ", " + load) }

                    """.write(to: dir.appendingPathComponent("pipelines/\(pipeline).yaml"), atomically: true,
                              encoding: .utf8)
            }
        }

        deinit {
            try? FileManager.default.removeItem(at: dir)
        }

        /// The pipeline file of `name`.
        func pipeline(_ name: String) -> String {
            dir.appendingPathComponent("pipelines/\(name).yaml").path
        }

        /// A file path in the machine's directory.
        func path(_ name: String) -> String {
            dir.appendingPathComponent(name).path
        }

        /// `mlsfeed run` of `pipelines` (names) with `arguments`, in the machine's directory with its config.
        func start(_ pipelines: [String], _ arguments: [String], database: String,
                   environment: [String: String] = [:]) throws -> RunningProcess {
            try RunningProcess(["run"] + pipelines.map(pipeline) + arguments
                                   + ["--database", database, "--config", path("config.yaml")],
                               directory: dir, environment: environment)
        }

        /// The environment that pauses every run of the process at `phase` until `resume` exists, announcing the
        /// pause in `marker`.
        func pause(at phase: TestPause) -> [String: String] {
            ["MLSFEED_TEST_PAUSE": phase.rawValue, "MLSFEED_TEST_PAUSE_FILE": path("paused"),
             "MLSFEED_TEST_RESUME_FILE": path("resume")]
        }

        /// Lets the runs paused by `pause(at:)` go on.
        func resume() throws {
            try Data().write(to: URL(fileURLWithPath: path("resume")))
        }
    }

    /// The listings, agents and history a load decides (no run ids), every source's, to compare two databases.
    static func content(_ database: String) throws -> [[String?]] {
        let db = try Connection(database)
        return try db.execute("""
            SELECT l::text FROM (
                SELECT source, listing_id, standard_status, list_price, modification_timestamp, city, extra,
                       content_hash, off_market_at IS NOT NULL AS off_market
                FROM listings) l ORDER BY 1
            """).rows
            + db.execute("SELECT a::text FROM (SELECT agent_mls_id, first_name, last_name, email, content_hash "
                         + "FROM agents) a ORDER BY 1").rows
            + db.execute("""
                SELECT h::text FROM (SELECT source, listing_id, modification_timestamp, change, old_price, new_price,
                                            old_status, new_status FROM listing_history) h ORDER BY 1
                """).rows
    }

    /// Polls `condition` every 20 ms until it holds, for at most two minutes.
    static func waitUntil(_ what: String, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(120)
        while try !condition() {
            guard Date() < deadline else { throw WaitFailure(description: "timed out waiting until \(what)") }
            usleep(20_000)
        }
    }

    /// A wait that ran out.
    struct WaitFailure: Error, CustomStringConvertible {
        var description: String
    }
}
