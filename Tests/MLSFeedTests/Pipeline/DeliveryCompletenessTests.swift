import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// Whether a RESO JSON delivery (a file, a set of page files, Web API pages) is complete: an `@odata.nextLink` left
/// unfollowed, `@odata.count` as a number or a string, the count of the first page against the records of all
/// pages, a full Web API run asking for the count; a dry run reaching the database run's verdict; a failed parse
/// recorded incomplete.
@Suite(.ownThread) struct DeliveryCompletenessTests {
    typealias Web = ResoWebAPITests

    /// A scratch directory with a RESO JSON pipeline (`json.yaml`, the shipped RESO mapping) reading files.
    struct Scratch {
        let dir: URL
        let database: String

        init(mode: String = "full", unit: String = "file") throws {
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("delivery-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            database = try TestDatabase.migrated()
            let mapping = CLI.packageRoot.appendingPathComponent("pipelines/mappings/reso.yaml").path
            try """
                name: json
                source: { id: actris, time_zone: America/Chicago, unit: \(unit) }
                format: { type: reso-json }
                mapping: \(mapping)
                load: { mode: \(mode) }
                """.write(to: dir.appendingPathComponent("json.yaml"), atomically: true, encoding: .utf8)
        }

        /// Writes an OData page of `records` (ListingId L<n>), with `extra` members after its `value`.
        @discardableResult
        func page(_ name: String, _ keys: ClosedRange<Int>, count: String? = nil, nextLink: String? = nil) throws
            -> String {
            let records = keys.map { Web.record($0, modified: "2026-11-01T10:00:00Z") }
            let value = String(decoding: try JSONSerialization.data(withJSONObject: records), as: UTF8.self)
            var members = ["\"@odata.context\": \"$metadata#Property\""]
            if let count { members.append("\"@odata.count\": \(count)") }
            members.append("\"value\": \(value)")
            if let nextLink { members.append("\"@odata.nextLink\": \"\(nextLink)\"") }
            let path = dir.appendingPathComponent(name).path
            try ("{" + members.joined(separator: ",\n ") + "}\n").write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }

        func run(_ input: String, dryRun: Bool = false) throws -> RunSummary {
            let config = try PipelineConfig.load(path: dir.appendingPathComponent("json.yaml").path,
                                                 project: ProjectConfig(), environment: [:])
            var options = RunOptions()
            options.conninfo = database
            options.input = input
            options.dryRun = dryRun
            return try PipelineRunner(config: config, options: options).run()
        }

        /// Listing ids on the market, in order.
        func onMarket() throws -> [String] {
            try Connection(database).execute("""
                SELECT listing_id FROM listings WHERE off_market_at IS NULL ORDER BY listing_id
                """).rows.map { $0[0] ?? "" }
        }
    }

    static let refusal = "error: dump is incomplete (@odata.nextLink not followed); a full run withdraws only from "
        + "a complete dump; set load.on_incomplete: incremental to upsert it anyway"

    @Test func aFileEndingWithAnUnfollowedNextLinkIsIncomplete() throws {
        let scratch = try Scratch()
        #expect(try scratch.run(try scratch.page("all.json", 1...3)).status == .succeeded)
        let cut = try scratch.run(try scratch.page("cut.json", 1...2, nextLink: "Property?$skiptoken=2"))
        #expect(cut.status == .failed)
        #expect(cut.failure == .refused)
        #expect(cut.error == Self.refusal)
        #expect(cut.completeness.reasons == ["@odata.nextLink not followed"])
        #expect(try scratch.onMarket() == ["L1", "L2", "L3"])
    }

    @Test func aPageSetEndingWithAnUnfollowedNextLinkIsIncomplete() throws {
        let scratch = try Scratch(mode: "incremental", unit: "all")
        try scratch.page("p1.json", 1...2, nextLink: "p2.json")
        try scratch.page("p2.json", 3...4, nextLink: "p3.json")
        let summary = try scratch.run(scratch.dir.appendingPathComponent("p*.json").path)
        #expect(summary.status == .succeeded, "\(summary.error ?? "")")
        #expect(summary.completeness.reasons == ["@odata.nextLink not followed in "
            + scratch.dir.appendingPathComponent("p2.json").path])
        // Each page naming the next, the last naming none: complete.
        try scratch.page("p2.json", 3...4)
        let whole = try scratch.run(scratch.dir.appendingPathComponent("p*.json").path)
        #expect(whole.completeness.reasons == [])
    }

    @Test(arguments: [
        ("5", ["COUNT 5 > 3 rows read"]),
        ("\"5\"", ["COUNT 5 > 3 rows read"]),
        ("\" 3 \"", []),
    ])
    func aCountGivenAsANumberOrAStringCounts(count: String, reasons: [String]) throws {
        let scratch = try Scratch(mode: "incremental")
        let summary = try scratch.run(try scratch.page("count.json", 1...3, count: count))
        #expect(summary.completeness.reasons == reasons)
        #expect(summary.warnings.filter { $0.contains("@odata.count") } == [])
    }

    @Test func aCountThatIsNoNumberIsAWarningNamingIt() throws {
        let scratch = try Scratch(mode: "incremental")
        let path = try scratch.page("count.json", 1...3, count: "\"many\"")
        let summary = try scratch.run(path)
        #expect(summary.completeness.reasons == [])
        #expect(summary.warnings.filter { $0.contains("@odata.count") } == ["\(path): @odata.count \"many\" at line "
            + "2, column 23 is not a number of records (a whole number, 0 or more); ignored"])
    }

    @Test func aFullWebAPIRunAsksForTheCountAndAServerEndingShortIsIncomplete() throws {
        let server = try ODataServer(records: (1...10).map { Web.record($0, modified: "2026-11-01T10:00:00Z") })
        let database = try TestDatabase.migrated()
        let pipeline = try Web.pipeline(server, odata: "{ top: 2 }", replication: nil, mode: "full")
        let first = try Web.run(pipeline, database)
        #expect(first.status == .succeeded, "\(first.error ?? "")")
        #expect(first.load.inserted == 10)
        #expect(server.requests.first?.contains("$count=true") == true, "\(server.requests)")
        // The server stops after page 3 of 5 without a next link: 6 of the 10 it counted.
        try server.setSettings(["stop_after_pages": 3])
        let short = try Web.run(pipeline, database)
        #expect(short.status == .failed)
        #expect(short.failure == .refused)
        #expect(short.completeness.reasons == ["COUNT 10 > 6 rows read"])
        #expect(short.load.withdrawn == 0)
        #expect(try Connection(database).execute("SELECT count(*) FROM listings WHERE off_market_at IS NULL").rows
            == [["10"]])
    }

    @Test func theCountIsTheFirstPagesNotASumOverPages() throws {
        let server = try ODataServer(records: (1...10).map { Web.record($0, modified: "2026-11-01T10:00:00Z") })
        try server.setSettings(["stop_after_pages": 3, "count_always": true])
        let pipeline = try Web.pipeline(server, odata: "{ top: 2 }", replication: nil, mode: "full")
        let summary = try Web.run(pipeline, try TestDatabase.migrated())
        #expect(summary.completeness.reasons == ["COUNT 10 > 6 rows read"])
        #expect(summary.failure == .refused)
    }

    @Test func aDryRunOfAnIncompleteDumpIsRefusedLikeTheDatabaseRun() throws {
        let scratch = try Scratch()
        let cut = try scratch.page("cut.json", 1...2, nextLink: "Property?$skiptoken=2")
        let dry = try scratch.run(cut, dryRun: true)
        #expect(dry.status == .failed)
        #expect(dry.failure == .refused)
        #expect(dry.error == Self.refusal)
        let result = try CLI.run(["run", "json.yaml", "--dry-run", "--input", cut, "--quiet"], in: scratch.dir)
        #expect(result.status == 3)
        #expect(result.stderr.contains(Self.refusal + "\n"), "\(result.stderr)")
    }

    @Test func aFailedParseIsRecordedIncomplete() throws {
        let scratch = try Scratch()
        let path = scratch.dir.appendingPathComponent("broken.json").path
        try #"{"value": [{"ListingId": "L1", "#.write(toFile: path, atomically: true, encoding: .utf8)
        let summary = try scratch.run(path)
        #expect(summary.status == .failed)
        #expect(summary.completeness.isComplete == false)
        #expect(try Connection(scratch.database).execute("SELECT complete::text, incomplete_reasons FROM ingest_runs")
            .rows == [["false", "{\"the run ended before its input was read to the end\"}"]])
    }
}
