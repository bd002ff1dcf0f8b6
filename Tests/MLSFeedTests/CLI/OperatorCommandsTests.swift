import Foundation
import MLSFeed
import Postgres
import PostgresTestSupport
import Testing

/// `runs`, `runs show`, `history`, `rejects` and `prune` through the built binary on a real PostgreSQL.
@Suite(.ownThread) struct OperatorCommandsTests {
    @Test func runsListsTheLedgerAsATableAndAsJSON() throws {
        let feeds = try NightlyFeeds()
        defer { feeds.remove() }
        let table = try feeds.run(["runs"])
        #expect(table.status == 0)
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines[0].hasPrefix("id  pipeline  source  status     mode  started              seconds  read  "
            + "rejected"))
        #expect(lines[1].hasPrefix(" 4  sample    sdmls   succeeded  full  "))
        #expect(lines[1].hasSuffix("303         4      3         0        1        295      0          0"))
        #expect(lines[3].hasSuffix("303         4      3         0        1        295      0          0"))

        let json = try feeds.run(["runs", "--format", "json", "--limit", "2"])
        #expect(json.status == 0)
        let runs = try #require(try parsedJSON(json.stdout) as? [[String: Any]])
        #expect(runs.map { $0["id"] as? Int } == [4, 3])
        #expect(runs[1]["withdrawn"] as? Int == 1 && runs[1]["status"] as? String == "succeeded")
        #expect(Array(runs[0].keys).sorted() == ["agents_inserted", "agents_unchanged", "agents_updated", "duplicates",
            "error", "finished_at", "id", "inserted", "mode", "pipeline", "read", "rejected", "removed_characters",
            "seconds", "source", "stale", "started_at", "status", "unchanged", "updated", "withdrawn"])
        #expect((runs[0]["started_at"] as? String)?.hasSuffix("Z") == true)
        #expect(try feeds.run(["runs", "--name", "nosuch", "--format", "json"]).stdout == "[]\n")
    }

    @Test func runsShowPrintsOneRunInFull() throws {
        let feeds = try NightlyFeeds()
        defer { feeds.remove() }
        let text = try feeds.run(["runs", "show", "3"])
        #expect(text.status == 0)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0] == "run 3: pipeline sample, source sdmls, mode full: succeeded")
        #expect(lines.contains("    \(feeds.path("2026-11-30.xml")), 353113 bytes, sha256 "
            + (try Self.sha256(feeds.path("2026-11-30.xml")))))
        #expect(lines.contains("  read 302, rejected 4, duplicates 3; inserted 0, updated 0, unchanged 295, stale 0, "
            + "withdrawn 1"))
        #expect(lines.contains("  dump: complete; as of 2026-11-30T10:00:00.000Z; reconciled the source"))
        #expect(lines.contains { $0.hasPrefix("  stages: fetch ") && $0.contains(", load ") })
        #expect(lines.contains("  first rejects (4 stored; `mlsfeed rejects --run 3`):"))
        #expect(lines.contains("    \(feeds.path("2026-11-30.xml")):110:3: error: listing_id: required field is "
            + "missing"))

        let json = try feeds.run(["runs", "show", "3", "--format", "json"])
        let run = try #require(try parsedJSON(json.stdout) as? [String: Any])
        #expect(run["id"] as? Int == 3 && run["withdrawn"] as? Int == 1 && run["complete"] as? Bool == true)
        #expect(run["as_of"] as? String == "2026-11-30T10:00:00.000Z" && run["reconciled"] as? Bool == true)
        let inputs = try #require(run["inputs"] as? [[String: Any]])
        #expect(inputs.map { $0["location"] as? String } == [feeds.path("2026-11-30.xml")])
        #expect(inputs.first?["bytes"] as? Int == 353_113)
        let timings = try #require(run["timings"] as? [String: Double])
        #expect(Set(timings.keys) == ["fetch", "parse", "normalize", "validate", "dedupe", "load"])
        #expect((run["sample_rejects"] as? [String])?.count == 4 && run["stored_rejects"] as? Int == 4)
        #expect(run["incomplete_reasons"] as? [String] == [] && run["matched_run"] is NSNull)

        let missing = try feeds.run(["runs", "show", "99"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: no run 99 in the ledger (never recorded, or pruned)\n")
    }

    @Test func historyShowsPriceAndStatusChangesWithdrawalsAndReturns() throws {
        let feeds = try NightlyFeeds()
        defer { feeds.remove() }
        let text = try feeds.run(["history", NightlyFeeds.listing])
        #expect(text.status == 0)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0] == "listing 260000005, source sdmls: Pending, 1199000.00; first seen in run 1, last changed "
            + "in run 4")
        #expect(lines[1].hasPrefix("  recorded             run  change     price                    status"))
        #expect(lines[2].hasSuffix("  2    price      1230000.00 → 1199000.00  Active               "
            + localTime("2026-11-29T00:20:00Z")))
        #expect(lines[3].hasSuffix("  3    withdrawn  1199000.00               Active → Withdrawn"))
        #expect(lines[4].hasSuffix("  4    returned   1199000.00               Withdrawn → Pending  "
            + localTime("2026-12-01T02:05:00Z")))
        #expect(lines.count == 5)

        let json = try feeds.run(["history", NightlyFeeds.listing, "--source", "sdmls", "--format", "json"])
        let listing = try #require(try parsedJSON(json.stdout) as? [String: Any])
        #expect(listing["listing_id"] as? String == NightlyFeeds.listing)
        let sources = try #require(listing["sources"] as? [[String: Any]])
        #expect(sources.count == 1 && sources[0]["standard_status"] as? String == "Pending")
        #expect(sources[0]["list_price"] as? Double == 1_199_000 && sources[0]["off_market_at"] is NSNull)
        let changes = try #require(sources[0]["changes"] as? [[String: Any]])
        #expect(changes.map { $0["change"] as? String } == ["price", "withdrawn", "returned"])
        #expect(changes.map { $0["run_id"] as? Int } == [2, 3, 4])
        #expect(changes.map { $0["pipeline"] as? String } == ["sample", "sample", "sample"])
        #expect(changes.map { $0["new_status"] as? String } == ["Active", "Withdrawn", "Pending"])
        #expect(changes[0]["old_price"] as? Double == 1_230_000 && changes[0]["new_price"] as? Double == 1_199_000)
        #expect(changes[0]["modification_timestamp"] as? String == "2026-11-29T00:20:00.000Z")

        let elsewhere = try feeds.run(["history", NightlyFeeds.listing, "--source", "crmls"])
        #expect(elsewhere.status == 1 && elsewhere.stderr == "error: no listing 260000005 in source crmls\n")
    }

    @Test func rejectsListsPositionsReasonsAndRawFields() throws {
        let feeds = try NightlyFeeds()
        defer { feeds.remove() }
        let table = try feeds.run(["rejects"])
        #expect(table.status == 0)
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("run 4: pipeline sample, source sdmls, succeeded, started "))
        #expect(lines[1].hasPrefix("position") && lines[1].contains("  key  ") && lines[1].hasSuffix("raw"))
        let path = feeds.path("2026-12-01.xml")
        #expect(lines[2].hasPrefix("\(path):111:3  listing -          listing_id: required field is missing"))
        #expect(lines[2].contains("  mls_number=, status=Active, property_type=Single Family Residential, "))
        #expect(lines[3].hasPrefix("\(path):120:3  listing 260000343  list_price: not a price (\"call agent\")"))
        #expect(lines.last == "4 rejects")
        #expect(lines.count == 7)

        let priced = try feeds.run(["rejects", "--last", "--name", "sample", "--reason", "NOT A PRICE",
                                    "--format", "jsonl"])
        #expect(priced.status == 0)
        let objects = try priced.stdout.split(separator: "\n").map { try #require(try parsedJSON(String($0))
            as? [String: Any]) }
        #expect(objects.map { $0["key"] as? String } == ["260000343", "260000413"])
        #expect(objects[0]["run_id"] as? Int == 4 && objects[0]["position"] as? String == "\(path):120:3")
        #expect(objects[0]["line"] as? Int == 120 && objects[0]["column"] as? Int == 3)
        #expect(objects[0]["reasons"] as? [String] == ["list_price: not a price (\"call agent\")"])
        let raw = try #require(objects[0]["raw"] as? [[String]])
        #expect(raw.count == 80 && raw[0] == ["mls_number", "260000343"] && raw[3] == ["list_price", "call agent"])

        let first = try feeds.run(["rejects", "--run", "1", "--reason", "81 FIELDS", "--format", "jsonl"])
        let line = try #require(try parsedJSON(first.stdout) as? [String: Any])
        #expect(line["position"] as? String == "pipelines/data/sample.xml:282:3")

        // A nested record's raw fields are its JSON object.
        _ = try feeds.query("""
            INSERT INTO rejects (run_id, source, entity, key, file, line, column_number, ordinal, reasons, raw)
            VALUES (2, 'sdmls', 'listing', 'N1', 'ddf.xml', 4, 5, 900, ARRAY['listing_id: required field is missing'],
                    '{"ListPrice": "TBD", "Agents": [{"Name": "Ann"}]}')
            """)
        let nested = try feeds.run(["rejects", "--run", "2", "--reason", "required", "--format", "jsonl"])
        let records = try nested.stdout.split(separator: "\n").map { try #require(try parsedJSON(String($0))
            as? [String: Any]) }
        #expect(records.count == 2)
        let object = try #require(records.last?["raw"] as? [String: Any])
        #expect(object["ListPrice"] as? String == "TBD")
        #expect((object["Agents"] as? [[String: String]])?[0]["Name"] == "Ann")

        let none = try feeds.run(["rejects", "--run", "77"])
        #expect(none.status == 1 && none.stderr == "error: no run 77 in the ledger (never recorded, or pruned)\n")
        let nothing = try feeds.run(["rejects", "--last", "--name", "weekly"])
        #expect(nothing.status == 1 && nothing.stderr == "error: no succeeded run in the ledger for pipeline weekly\n")
    }

    @Test func pruneDeletesOldRunsAndTheirRejectsButNoListingOrHistory() throws {
        let feeds = try NightlyFeeds()
        defer { feeds.remove() }
        _ = try feeds.query("UPDATE ingest_runs SET started_at = started_at - interval '200 days' WHERE id IN (1, 2)")
        let before = try feeds.query("""
            SELECT (SELECT count(*) FROM listings), (SELECT count(*) FROM agents),
                   (SELECT count(*) FROM listing_history)
            """)
        let dry = try feeds.run(["prune", "--runs-older-than", "180d", "--rejects-older-than", "90d", "--dry-run"])
        #expect(dry.status == 0)
        #expect(dry.stdout == "prune (dry run): would delete 2 runs and 8 rejects\n")
        #expect(try feeds.query("SELECT count(*) FROM ingest_runs") == [["4"]])

        let done = try feeds.run(["prune", "--runs-older-than", "180d", "--rejects-older-than=90d"])
        #expect(done.status == 0 && done.stdout == "prune: deleted 2 runs and 8 rejects\n")
        #expect(try feeds.query("SELECT id FROM ingest_runs ORDER BY id") == [["3"], ["4"]])
        #expect(try feeds.query("SELECT DISTINCT run_id FROM rejects ORDER BY 1") == [["3"], ["4"]])
        #expect(try feeds.query("""
            SELECT (SELECT count(*) FROM listings), (SELECT count(*) FROM agents),
                   (SELECT count(*) FROM listing_history)
            """) == before)
        let history = try feeds.run(["history", NightlyFeeds.listing])
        #expect(history.stdout.split(separator: "\n")[2].contains("  2 (pruned)  price  "))

        // The newest run is kept whatever its age: change detection and the metrics need it.
        _ = try feeds.query("UPDATE ingest_runs SET started_at = started_at - interval '400 days'")
        let kept = try feeds.run(["prune", "--runs-older-than", "1d"])
        #expect(kept.stdout == "prune: deleted 1 run and 4 rejects; kept 1 old run that later runs or the metrics "
            + "still need (each pipeline's last run and last success, each source's last successful and newest "
            + "dumps)\n")
        #expect(try feeds.query("SELECT id FROM ingest_runs") == [["4"]])
    }

    /// The read-only commands never migrate: an empty database stays empty and the error names the fix.
    @Test func readOnlyCommandsRefuseAnOlderSchemaAndChangeNothing() throws {
        let database = try TestDatabase.fresh()
        let message = "error: the database schema is at version 0, this mlsfeed needs \(Migrations.latestVersion); "
            + "run `mlsfeed db migrate`\n"
        for arguments in [["runs"], ["runs", "show", "1"], ["history", "1"], ["rejects"],
                          ["prune", "--runs-older-than", "1d"]] {
            let result = try CLI.run(arguments + ["--database", database])
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr == message, "\(arguments)")
        }
        #expect(try Connection(database).execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").rows
            == [["0"]])
    }

    /// With no database configured, they read the embedded cluster only when it runs: they never create or start it.
    @Test func readOnlyCommandsNeverStartTheEmbeddedCluster() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ro-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "database: embedded\ndata_dir: data\n".write(to: dir.appendingPathComponent("config.yaml"),
                                                        atomically: true, encoding: .utf8)
        let result = try CLI.run(["runs"], in: dir)
        #expect(result.status == 4)
        #expect(result.stderr == "error: the embedded PostgreSQL under data is not running; start it with "
            + "`mlsfeed db start` (a run starts it too)\n")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("data").path))
    }

    static func sha256(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(String(decoding: data, as: UTF8.self).prefix(64))
    }
}

/// An ISO time as the tables print it (local time).
func localTime(_ iso: String) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    return formatter.string(from: ISO8601DateFormatter().date(from: iso)!)
}
