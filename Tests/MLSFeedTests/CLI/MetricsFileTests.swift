import Foundation
import PostgresTestSupport
import Testing

/// `--metrics-file` through the built binary, read back by a real Prometheus parser (`prometheus_client`'s text
/// parser from PyPI, installed into a temporary directory; the test is cancelled with the reason when pip cannot
/// install it).
@Suite(.ownThread) struct MetricsFileTests {
    /// A scratch directory with `prometheus_client` installed in `site`.
    struct Parser {
        let dir: URL

        init() throws {
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let pip = Process()
            pip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            pip.arguments = ["python3", "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                             "--target", dir.appendingPathComponent("site").path, "prometheus_client"]
            let err = Pipe()
            pip.standardError = err
            pip.standardOutput = FileHandle.nullDevice
            try pip.run()
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            pip.waitUntilExit()
            guard pip.terminationStatus == 0 else {
                try? FileManager.default.removeItem(at: dir)
                let reason = "pip could not install prometheus_client: \(message.suffix(300))"
                print("MetricsFileTests skipped: \(reason)")
                try Test.cancel(Comment(rawValue: reason))
            }
        }

        /// Every sample of the file as `name{label="value",...}` (labels sorted) → value, through
        /// `prometheus_client.parser.text_string_to_metric_families`, which throws on any malformed line.
        func samples(_ path: String) throws -> [String: Double] {
            let script = """
                import json, sys
                from prometheus_client.parser import text_string_to_metric_families
                out = {}
                for family in text_string_to_metric_families(open(sys.argv[1]).read()):
                    assert family.type == "gauge", family
                    for s in family.samples:
                        labels = ",".join(f'{k}="{v}"' for k, v in sorted(s.labels.items()))
                        out[f"{s.name}{{{labels}}}"] = s.value
                print(json.dumps(out))
                """
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", script, path]
            process.environment = ProcessInfo.processInfo.environment
                .merging(["PYTHONPATH": dir.appendingPathComponent("site").path]) { $1 }
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw NightlyFeeds.CLIFailure(message: "the Prometheus parser refused \(path)")
            }
            return try JSONDecoder().decode([String: Double].self, from: data)
        }

        func remove() {
            try? FileManager.default.removeItem(at: dir)
        }
    }

    /// A sample's key as `samples` makes it: labels sorted by name.
    static func key(_ name: String, _ label: String = "") -> String {
        let labels = ([label, "pipeline=\"sample\"", "source=\"sdmls\""].filter { !$0.isEmpty }).sorted()
        return "\(name){\(labels.joined(separator: ","))}"
    }

    @Test func runsWriteMetricsThatPrometheusReadsAndAFailureKeepsTheLastSuccess() throws {
        let parser = try Parser()
        defer { parser.remove() }
        let database = try TestDatabase.migrated()
        let template = parser.dir.appendingPathComponent("mlsfeed-{pipeline}.prom").path
        let file = parser.dir.appendingPathComponent("mlsfeed-sample.prom").path

        let first = try CLI.run(["run", "sample", "--database", database, "--no-progress", "--quiet",
                                 "--metrics-file", template])
        #expect(first.status == 0)
        let ok = try parser.samples(file)
        #expect(ok[Self.key("mlsfeed_last_run_status", "status=\"succeeded\"")] == 1)
        #expect(ok[Self.key("mlsfeed_last_run_status", "status=\"failed\"")] == 0)
        #expect(ok[Self.key("mlsfeed_last_run_failure", "failure=\"input\"")] == 0)
        #expect(ok[Self.key("mlsfeed_last_run_id")] == 1)
        for (outcome, count) in [("read", 303.0), ("rejected", 4), ("inserted", 296), ("updated", 0), ("unchanged", 0),
                                 ("stale", 0), ("withdrawn", 0)] {
            #expect(ok[Self.key("mlsfeed_last_run_records", "outcome=\"\(outcome)\"")] == count, "\(outcome)")
        }
        #expect(ok[Self.key("mlsfeed_last_run_agents", "outcome=\"inserted\"")] == 201)
        let success = try #require(ok[Self.key("mlsfeed_last_success_timestamp_seconds")])
        #expect(success == ok[Self.key("mlsfeed_last_run_timestamp_seconds")])
        #expect(abs(success - Date().timeIntervalSince1970) < 120)
        #expect((ok[Self.key("mlsfeed_last_run_duration_seconds")] ?? 0) > 0)
        #expect(ok.count == 23)
        #expect(try FileManager.default.contentsOfDirectory(atPath: parser.dir.path).filter { $0.hasPrefix(".") }
            .isEmpty)

        // A bad input: failed on its input; the last success is the ledger's (the first run's end).
        let bad = parser.dir.appendingPathComponent("bad.xml")
        try "<dump><keys>mls_number</keys><listing><values>1</values></listin></dump>"
            .write(to: bad, atomically: true, encoding: .utf8)
        let failed = try CLI.run(["run", "sample", "--input", bad.path, "--database", database, "--no-progress",
                                  "--metrics-file", template])
        #expect(failed.status == 1)
        let afterFailure = try parser.samples(file)
        #expect(afterFailure[Self.key("mlsfeed_last_run_status", "status=\"failed\"")] == 1)
        #expect(afterFailure[Self.key("mlsfeed_last_run_failure", "failure=\"input\"")] == 1)
        #expect(afterFailure[Self.key("mlsfeed_last_run_id")] == 2)
        let ledgerSuccess = try #require(afterFailure[Self.key("mlsfeed_last_success_timestamp_seconds")])
        #expect(abs(ledgerSuccess - success) < 5)

        // The database unreachable: the run never reaches the ledger; the last success comes from the old file.
        let down = try CLI.run(["run", "sample", "--database", "host=/nonexistent-mlsfeed dbname=x connect_timeout=2",
                                "--no-progress", "--metrics-file", template])
        #expect(down.status == 4)
        let afterOutage = try parser.samples(file)
        #expect(afterOutage[Self.key("mlsfeed_last_run_failure", "failure=\"unavailable\"")] == 1)
        #expect(afterOutage[Self.key("mlsfeed_last_run_status", "status=\"failed\"")] == 1)
        #expect(afterOutage[Self.key("mlsfeed_last_run_id")] == nil)
        #expect(afterOutage[Self.key("mlsfeed_last_success_timestamp_seconds")] == ledgerSuccess)
    }

    @Test func metricsFileInConfigIsRelativeToIt() throws {
        let parser = try Parser()
        defer { parser.remove() }
        let database = try TestDatabase.migrated()
        let config = parser.dir.appendingPathComponent("config.yaml")
        try "metrics_file: out/{pipeline}.prom\n".write(to: config, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: parser.dir.appendingPathComponent("out"),
                                                withIntermediateDirectories: true)
        let result = try CLI.run(["run", "sample", "--config", config.path, "--database", database, "--no-progress",
                                  "--quiet"])
        #expect(result.status == 0)
        let samples = try parser.samples(parser.dir.appendingPathComponent("out/sample.prom").path)
        #expect(samples[Self.key("mlsfeed_last_run_status", "status=\"succeeded\"")] == 1)
        // A dry run leaves the file alone.
        try FileManager.default.removeItem(at: parser.dir.appendingPathComponent("out/sample.prom"))
        #expect(try CLI.run(["run", "sample", "--config", config.path, "--dry-run", "--quiet"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: parser.dir.appendingPathComponent("out/sample.prom").path))
    }
}
