import Foundation
import Postgres
import PostgresTestSupport
import Testing

/// Four nights of the sample pipeline in a fresh database, run through the built binary: the committed sample,
/// then a price cut of 260000005, then a dump without it (withdrawn), then its return as Pending.
struct NightlyFeeds {
    let dir: URL
    let database: String

    /// The listing whose history the four nights write.
    static let listing = "260000005"

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("nightly-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        database = try TestDatabase.migrated()
        let sample = try String(contentsOf: CLI.packageRoot.appendingPathComponent("pipelines/data/sample.xml"),
                                encoding: .utf8)
        let active = "<listing><values>260000005|Active|Single Family Residential|1230000|1230000||08/19/2026|"
            + "2026-08-21T10:55:26|"
        precondition(sample.contains(active), "the sample changed: pick another listing")
        let cut = sample.replacingOccurrences(of: "2026-11-28T02:00:00", with: "2026-11-29T02:00:00")
            .replacingOccurrences(of: active, with: "<listing><values>260000005|Active|Single Family Residential|"
                                  + "1199000|1230000||08/19/2026|2026-11-28T16:20:00|")
        let gone = cut.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("  <listing><values>260000005|") }.joined(separator: "\n")
            .replacingOccurrences(of: "2026-11-29T02:00:00", with: "2026-11-30T02:00:00")
        let back = cut.replacingOccurrences(of: "2026-11-29T02:00:00", with: "2026-12-01T02:00:00")
            .replacingOccurrences(of: "260000005|Active|Single Family Residential|1199000|1230000||08/19/2026|"
                                  + "2026-11-28T16:20:00|",
                                  with: "260000005|Pending|Single Family Residential|1199000|1230000||08/19/2026|"
                                  + "2026-11-30T18:05:00|")
        try cut.write(to: dir.appendingPathComponent("2026-11-29.xml"), atomically: true, encoding: .utf8)
        try gone.write(to: dir.appendingPathComponent("2026-11-30.xml"), atomically: true, encoding: .utf8)
        try back.write(to: dir.appendingPathComponent("2026-12-01.xml"), atomically: true, encoding: .utf8)
        for input in ["pipelines/data/sample.xml", path("2026-11-29.xml"), path("2026-11-30.xml"),
                      path("2026-12-01.xml")] {
            let result = try CLI.run(["run", "sample", "--input", input, "--database", database, "--no-progress",
                                      "--quiet"])
            guard result.status == 0 else {
                throw CLIFailure(message: "run of \(input) exited \(result.status): \(result.stderr)")
            }
        }
    }

    func path(_ name: String) -> String {
        dir.appendingPathComponent(name).path
    }

    /// `mlsfeed ARGS --database DATABASE`.
    func run(_ arguments: [String]) throws -> CLI.Result {
        try CLI.run(arguments + ["--database", database])
    }

    func query(_ sql: String) throws -> [[String?]] {
        try Connection(database).execute(sql).rows
    }

    func remove() {
        try? FileManager.default.removeItem(at: dir)
    }

    /// A CLI step that should have worked and did not.
    struct CLIFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

/// JSON text parsed into Foundation values (`[String: Any]`, `[Any]`, ...), for assertions.
func parsedJSON(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
}
