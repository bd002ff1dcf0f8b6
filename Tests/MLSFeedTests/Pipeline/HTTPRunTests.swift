import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// Whole runs over HTTP from the loopback test server: paging through the runner, and ETag change detection.
@Suite(.ownThread) struct HTTPRunTests {
    static func pipeline(_ input: String, http: String) throws -> PipelineConfig {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("remote.yaml").path
        try """
            source:
              id: sdmls
              input: \(input)
              http:
            \(http)
            format:
              type: triples
            mapping:
              fields:
                listing_id: { from: mls_number, type: text, required: true }
                standard_status: { from: status, type: enum, required: true, values: { Active: Active } }
                list_price: { from: list_price, type: money, required: true }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return try PipelineConfig.load(path: path, project: ProjectConfig(), environment: [:])
    }

    @Test func pagedSourceIsReadPageByPageUntilAnEmptyPage() throws {
        let server = try FetchServer.shared.get()
        let key = FetchServer.key()
        let config = try Self.pipeline(server.url("paged/\(key)"), http: """
                paging: { param: page, start: 1, size_param: limit, size: 4 }
            """)
        var options = RunOptions()
        options.dryRun = true
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("paged-\(key).jsonl")
        options.output = out.path
        let summary = try PipelineRunner(config: config, options: options).run()
        #expect(summary.status == .succeeded, "\(summary.error ?? "")")
        #expect(summary.read == 12)
        // Pages 1–3 hold records; page 4 is empty and ends the paging: four requests, no more.
        #expect(try server.text("log/\(key)")
            == "page=1&limit=4\npage=2&limit=4\npage=3&limit=4\npage=4&limit=4\n")
        let lines = try String(contentsOf: out, encoding: .utf8).split(separator: "\n")
        #expect(lines.first?.contains(#""at":"\#(server.url("paged/\(key)")) [page 1]:3:3""#) == true)
        #expect(lines.last?.contains(#""listing_id":"3003""#) == true)
    }

    @Test func unchangedRemoteFeedIsNotLoadedAgain() throws {
        let server = try FetchServer.shared.get()
        let database = try TestDatabase.migrated()
        let config = try Self.pipeline(server.url("files/listings.xml"), http: "    retries: { attempts: 1 }")
        var options = RunOptions()
        options.conninfo = database
        let first = try PipelineRunner(config: config, options: options).run()
        #expect(first.status == .succeeded, "\(first.error ?? "")")
        #expect(first.load.inserted > 0)
        #expect(first.identities.first?.etag != nil)
        // The second run sends If-None-Match with the ETag the ledger recorded; the server answers 304.
        let second = try PipelineRunner(config: config, options: options).run()
        #expect(second.status == .unchanged)
        let db = try Connection(database)
        #expect(try db.execute("SELECT string_agg(status, ',' ORDER BY id) FROM ingest_runs").rows
            == [["succeeded,unchanged"]])
    }

    @Test(arguments: [
        ("files/listings.xml",
         "    params: { status: A, type: RE }\n    auth: { api_key: { query: apikey, value: s3cr3tKey } }"),
        ("lastmod/listings.xml", "    retries: { attempts: 1 }"),
    ])
    func aRemoteFeedKnownByItsFullRequestIsNotLoadedAgain(path: String, http: String) throws {
        let server = try FetchServer.shared.get()
        let database = try TestDatabase.migrated()
        let config = try Self.pipeline(server.url(path), http: http)
        var options = RunOptions()
        options.conninfo = database
        let first = try PipelineRunner(config: config, options: options).run()
        #expect(first.status == .succeeded, "\(first.error ?? "")")
        let second = try PipelineRunner(config: config, options: options).run()
        #expect(second.status == .unchanged)
        #expect(second.matchedRun == first.runID)
        let stored = try Connection(database).execute("SELECT inputs::text FROM ingest_runs ORDER BY id").rows
        #expect(stored.allSatisfy { !($0[0] ?? "").contains("s3cr3tKey") })
        if http.contains("apikey") {
            #expect(stored.first?.first??.contains("apikey=***") == true)
        }
    }

    @Test func pagingStoppedByMaxPagesIsAnIncompleteDump() throws {
        let server = try FetchServer.shared.get()
        let database = try TestDatabase.migrated()
        let key = FetchServer.key()
        let config = try Self.pipeline(server.url("paged/\(key)"), http: """
                paging: { param: page, start: 1, size_param: limit, size: 4, max_pages: 2 }
            """)
        var options = RunOptions()
        options.conninfo = database
        options.mode = .full
        let summary = try PipelineRunner(config: config, options: options).run()
        #expect(summary.status == .failed)
        #expect(summary.failure == .refused)
        #expect(summary.completeness.reasons == ["paging stopped at max_pages (2 pages)"])
        #expect(summary.error == "error: dump is incomplete (paging stopped at max_pages (2 pages)); a full run "
            + "withdraws only from a complete dump; set load.on_incomplete: incremental to upsert it anyway")
    }
}
