import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// Limits seen from the built binary: a deep document fails its run with a message and a `failed` ledger row (it
/// killed the process, exit 139, the row left `running`); the summary file never shows an earlier run's result
/// while a run goes on or after it died; a huge value in a compressed feed is a reject that costs no memory.
@Suite(.ownThread) struct RunLimitsTests {
    /// A directory of its own, removed by `deinit`.
    final class Scratch {
        let path = NSTemporaryDirectory() + "mlsfeed-limits-\(UUID().uuidString)"

        init() throws {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try "timeouts: { lock: 60 }\n".write(toFile: path + "/config.yaml", atomically: true, encoding: .utf8)
        }

        deinit {
            try? FileManager.default.removeItem(atPath: path)
        }

        /// The shipped pipeline `name` copied here (its mapping named by absolute path), `edit` applied.
        func pipeline(_ name: String, edit: (String) -> String = { $0 }) throws -> String {
            let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("pipelines/\(name)"),
                                  encoding: .utf8)
                .replacingOccurrences(of: "mapping: mappings/",
                                      with: "mapping: \(CLI.packageRoot.path)/pipelines/mappings/")
            try edit(text).write(toFile: path + "/" + name, atomically: true, encoding: .utf8)
            return path + "/" + name
        }
    }

    /// The line of `text` that holds `marker`.
    static func line(of marker: String, in text: String) -> Int {
        text[..<(text.range(of: marker)?.lowerBound ?? text.endIndex)].count(where: { $0 == "\n" }) + 1
    }

    /// An earlier run's summary, which no later run may leave in place.
    static let stale = #"{"status":"succeeded","run_id":1,"read":300}"# + "\n"

    @Test(arguments: [("syndication.yaml", "Listing>", 2), ("crea-ddf.yaml", "PropertyDetails ", 3),
                      ("rets-standard-xml.yaml", "PropertyListing>", 5)])
    func aDeepRecordFailsItsRunWithAMessageAndAFailedLedgerRow(pipeline: (String, String, Int)) throws {
        let (name, record, recordDepth) = pipeline
        let scratch = try Scratch()
        let (_, sample) = try ParseLimitsTests.shipped(name)
        let (document, line) = try ParseLimitsTests.nesting(20_000, in: sample, after: record)
        let input = scratch.path + "/deep.xml"
        try document.write(toFile: input, atomically: true, encoding: .utf8)
        let summary = scratch.path + "/summary.json"
        try Self.stale.write(toFile: summary, atomically: true, encoding: .utf8)
        let database = try TestDatabase.fresh()
        let result = try CLI.run(["run", try scratch.pipeline(name), "--input", input, "--database", database,
                                  "--config", scratch.path + "/config.yaml", "--summary-json", summary,
                                  "--quiet", "--no-progress"])
        let column = 1 + 3 * (ParseSettings.defaultMaxDepth - recordDepth)
        let message = "\(input):\(line):\(column): error: nesting deeper than 256"
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").contains { $0 == message }, "\(result.stderr)")
        #expect(try Connection(database).execute("SELECT status, error FROM ingest_runs").rows
            == [["failed", message]])
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: summary)))
        #expect((written as? [String: Any])?["status"] as? String == "failed")
        #expect((written as? [String: Any])?["error"] as? String == message)
    }

    /// While a run goes on, `--summary-json` says `running` (its process and start), not the last run's result;
    /// a run killed where no way out writes the summary (SIGKILL, a crash) leaves it so.
    @Test func theSummaryFileSaysRunningUntilTheRunWritesItsOwn() throws {
        let scratch = try Scratch()
        let summary = scratch.path + "/summary.json"
        try Self.stale.write(toFile: summary, atomically: true, encoding: .utf8)
        let marker = scratch.path + "/paused"
        let process = Process()
        process.executableURL = CLI.binary
        process.currentDirectoryURL = CLI.packageRoot
        process.arguments = ["run", "sample", "--dry-run", "--output", "/dev/null", "--config",
                             scratch.path + "/config.yaml", "--summary-json", summary, "--quiet", "--no-progress"]
        var environment = ProcessInfo.processInfo.environment
        environment["MLSFEED_TEST_PAUSE"] = TestPause.fetch.rawValue
        environment["MLSFEED_TEST_PAUSE_FILE"] = marker
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let deadline = Date().addingTimeInterval(120)
        while !FileManager.default.fileExists(atPath: marker) {
            try #require(process.isRunning && Date() < deadline, "the run never reached its pause")
            usleep(20_000)
        }
        func written() throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: summary)))
                as? [String: Any])
        }
        let running = try written()
        #expect(running["status"] as? String == "running")
        #expect(running["pid"] as? Int == Int(process.processIdentifier))
        #expect((running["started_at"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) } != nil)
        #expect(running.count == 3)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(try written()["status"] as? String == "running")
    }

    /// A 64 MiB value in a gzip-compressed triples feed (`format.max_record_bytes` 16 MiB by default): its record
    /// is a reject naming the bound, the rest loads, and the run's peak memory is the plain sample's, give or take:
    /// the value is dropped as it is inflated, never gathered. (A 1 GB value peaked at 2,097 MB and loaded.)
    @Test func aHugeValueInACompressedTriplesFeedIsARejectAndCostsNoMemory() throws {
        let scratch = try Scratch()
        let pipeline = try scratch.pipeline("sample.yaml")
        let sample = try String(contentsOf: CLI.packageRoot.appendingPathComponent("pipelines/data/sample.xml"),
                                encoding: .utf8)
        let values = try #require(sample.range(of: "<values>260000005|"))
        try sample[..<values.upperBound].write(toFile: scratch.path + "/head.xml", atomically: true, encoding: .utf8)
        try sample[values.upperBound...].write(toFile: scratch.path + "/tail.xml", atomically: true, encoding: .utf8)
        // head, 64 MiB of "x" as one value (the rest of the record follows it), tail; compressed as it is written.
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        gzip.arguments = ["python3", "-c", """
            import gzip, sys
            d = sys.argv[1]
            with gzip.open(d + "/big.xml.gz", "wb") as out:
                out.write(open(d + "/head.xml", "rb").read())
                for _ in range(64):
                    out.write(b"x" * (1 << 20))
                out.write(open(d + "/tail.xml", "rb").read())
            """, scratch.path]
        try gzip.run()
        gzip.waitUntilExit()
        try #require(gzip.terminationStatus == 0)
        func run(_ input: String) throws -> PeakMemory.Result {
            try PeakMemory.run(["run", pipeline, "--dry-run", "--input", input, "--output", "/dev/null",
                                "--config", scratch.path + "/config.yaml", "--no-progress"])
        }
        let plain = try run(CLI.packageRoot.appendingPathComponent("pipelines/data/sample.xml").path)
        let big = try run(scratch.path + "/big.xml.gz")
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(big.status == 0, "\(big.stderr)")
        #expect(big.stdout.contains("\(scratch.path)/big.xml.gz:\(Self.line(of: "<values>260000005|", in: sample)):"
            + "3: error: record: record is larger than format.max_record_bytes (16777216 bytes)"), "\(big.stdout)")
        #expect(big.peakKiB < plain.peakKiB + 24 << 10, "peak \(big.peakKiB) KiB against \(plain.peakKiB) KiB")
    }
}
