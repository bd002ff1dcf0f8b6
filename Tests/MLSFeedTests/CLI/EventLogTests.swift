import Foundation
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// `log_format: json`: every event a JSON line on stderr, retries always visible, no secret in any line.
@Suite(.ownThread) struct EventLogTests {
    @Test func everyEventIsAJSONLineWithoutSecrets() throws {
        let server = try FetchServer.shared.get()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("events-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let database = try TestDatabase.migrated()
        try "log_format: json\ndata_dir: \(dir.path)/data\n".write(to: dir.appendingPathComponent("config.yaml"),
                                                                    atomically: true, encoding: .utf8)
        let url = server.url("flaky/\(FetchServer.key())/listings.xml").replacingOccurrences(
            of: "http://", with: "http://feeduser:pa55-Secret@")
        try """
            source:
              id: sdmls
              input: \(url)
              http:
                params: { status: A }
                auth: { api_key: { query: apikey, value: "k3y-TOKEN-value" } }
                retries: { attempts: 3, backoff: 0.1, max_backoff: 0.2 }
            format: { type: triples }
            mapping:
              fields:
                listing_id: { from: mls_number, type: text, required: true }
                standard_status: { from: status, type: enum, required: true, values: { Active: Active } }
                list_price: { from: list_price, type: money, required: true }
            """.write(to: dir.appendingPathComponent("remote.yaml"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["run", "remote.yaml", "--database", database, "--no-progress"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        var events: [String] = []
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                                      "not a JSON line: \(line)")
            #expect(object["ts"] is String && object["level"] is String && object["run_id"] is Int)
            events.append(object["event"] as? String ?? "")
        }
        #expect(events.first == "run.started")
        #expect(events.last == "run.finished")
        for name in ["input.opened", "http.retry", "stage.finished"] { #expect(events.contains(name), "\(events)") }
        let retry = try #require(lines.first { $0.contains(#""event":"http.retry""#) })
        #expect(retry.contains("HTTP 500 Internal Server Error; retry 1 of 2"))
        for secret in ["pa55-Secret", "k3y-TOKEN-value"] {
            #expect(!result.stderr.contains(secret) && !result.stdout.contains(secret), "\(secret) was printed")
        }
    }

    @Test func textEventsAreReadableLinesAndQuietKeepsOnlyWarnings() throws {
        let verbose = try CLI.run(["run", "sample", "--dry-run", "--no-progress"])
        #expect(verbose.status == 0)
        #expect(verbose.stderr.contains(" info sample: started: source sdmls, mode full, dry run"))
        #expect(verbose.stderr.contains(" info sample: stage parse: "))
        let quiet = try CLI.run(["run", "sample", "--dry-run", "--no-progress", "--quiet"])
        #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
        // Warnings show even under --quiet.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quiet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let feed = dir.appendingPathComponent("empty.xml")
        try "<dump><keys>mls_number|status</keys><item/></dump>".write(to: feed, atomically: true, encoding: .utf8)
        let warned = try CLI.run(["run", "sample", "--dry-run", "--no-progress", "--quiet", "--input", feed.path])
        #expect(warned.stderr.contains(" warning sample: \(feed.path): no <listing> elements (format.record)"),
                "\(warned.stderr)")
    }
}
