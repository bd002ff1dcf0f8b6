import Foundation
import Testing
@testable import MLSFeed

/// The `mlsfeed` executable: exit codes, usage and compiler-style errors (no database needed).
@Suite(.ownThread) struct CLITests {
    @Test func versionAndHelp() throws {
        let version = try CLI.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == "mlsfeed 0.1.0\n")
        let help = try CLI.run(["run", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("usage: mlsfeed run PIPELINE... [options]"))
    }

    @Test(arguments: [
        (["frobnicate"], "error: unknown command frobnicate"),
        (["run"], "error: missing PIPELINE"),
        (["run", "sample", "--dry-rn"], "error: unknown option --dry-rn; did you mean --dry-run?"),
        (["run", "sample", "--mode", "weekly"], "error: --mode must be full or incremental, got weekly"),
        (["run", "sample", "--output", "x.jsonl"],
         "error: --output writes JSON lines in a dry run only; add --dry-run"),
        (["run", "nosuch"], "error: no pipeline nosuch (looked for nosuch and pipelines/nosuch.yaml)"),
    ])
    func usageMistakesExitTwo(arguments: [String], message: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(message + "\n"))
    }

    @Test func brokenPipelineFileExitsTwoWithPosition() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try """
            source:
              id: sdmls
            format:
              type: triples
            mapping:
              fields:
                listing_id: { from: mls_number, type: txt }
            """.write(to: dir.appendingPathComponent("nightly.yaml"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["validate", "nightly.yaml"], in: dir)
        #expect(result.status == 2)
        #expect(result.stderr == "nightly.yaml:7:43: error: mapping.fields.listing_id.type: expected one of: text, "
            + "integer, decimal, money, date, timestamp, boolean, enum, phone, email, postal_code, latitude, "
            + "longitude, got \"txt\"\n")
    }

    @Test(arguments: [
        ("  encoding: LATIN-99", "nightly.yaml:5:13: error: format.encoding: unknown encoding \"LATIN-99\" "
            + "(use a name like ISO-8859-1 or windows-1252)"),
        ("load: { on_incomplete: ignore }", "nightly.yaml:8:24: error: load.on_incomplete: expected one of: fail, "
            + "incremental, got \"ignore\""),
    ])
    func settingsCheckedWithoutTheFeedExitTwo(line: String, message: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
            source:
              id: sdmls
            format:
              type: triples
            \(line.hasPrefix("load") ? "" : line)
            mapping:
              fields: { listing_id: { from: mls_number, type: text } }
            \(line.hasPrefix("load") ? line : "")
            """.write(to: dir.appendingPathComponent("nightly.yaml"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["validate", "nightly.yaml"], in: dir)
        #expect(result.status == 2)
        #expect(result.stderr == message + "\n")
    }

    @Test func aDocumentWithoutRecordsSaysWhichElementItLookedFor() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let feed = dir.appendingPathComponent("empty.xml")
        try "<dump><keys>mls_number|status</keys><item/></dump>"
            .write(to: feed, atomically: true, encoding: .utf8)
        let result = try CLI.run(["run", "Tests/MLSFeedTests/Fixtures/pipeline/small.yaml", "--dry-run",
                                  "--input", feed.path, "--no-progress"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("warning: \(feed.path): no <listing> elements (format.record)"))
    }

    /// Inputs that are not feeds say what they are, each in its own words.
    @Test func inputsThatAreNotFeedsSayWhatIsWrong() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("inputs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data().write(to: dir.appendingPathComponent("empty.xml"))
        // A gzip stream damaged in the middle: zlib only notices at its end, after the parser saw garbage.
        let sample = try Data(contentsOf: CLI.packageRoot.appendingPathComponent("pipelines/data/sample.xml"))
        let plain = dir.appendingPathComponent("damaged.xml")
        try Data((0..<30).flatMap { _ in sample }).write(to: plain)
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = [plain.path]
        try gzip.run()
        gzip.waitUntilExit()
        var compressed = [UInt8](try Data(contentsOf: dir.appendingPathComponent("damaged.xml.gz")))
        compressed[2000] ^= 0x10
        try Data(compressed).write(to: dir.appendingPathComponent("damaged.xml.gz"))

        func firstError(_ input: String) throws -> String {
            let result = try CLI.run(["run", "pipelines/sample.yaml", "--dry-run", "--input", input, "--no-progress"])
            #expect(result.status == 1)
            // The summary's error line (event lines start with their timestamp).
            return result.stderr.split(separator: "\n").map(String.init)
                .first { $0.contains("error:") && !($0.first?.isNumber ?? false) } ?? ""
        }
        #expect(try firstError("/bin/ls")
            == "/bin/ls:1:1: error: not an XML document: it starts with the bytes 7f 45 4c 46 02 01 01 00, not \"<\"")
        #expect(try firstError(dir.path + "/empty.xml")
            == "\(dir.path)/empty.xml:1:1: error: the input is empty (0 bytes): not an XML document")
        #expect(try firstError(dir.path + "/damaged.xml.gz").hasPrefix(
            "error: \(dir.path)/damaged.xml.gz: not a valid gzip file: "))
    }

    @Test func anUnreadableInputSaysWhy() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("unreadable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let feed = dir.appendingPathComponent("secret.xml")
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("pipelines/data/sample.xml"),
                                         to: feed)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: feed.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path)
        let process = Process()
        // Root reads every file: the check runs as `nobody` then.
        if geteuid() == 0 {
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
            process.arguments = ["-u", "nobody", "--", CLI.binary.path]
        } else {
            process.executableURL = CLI.binary
            process.arguments = []
        }
        process.arguments! += ["run", CLI.packageRoot.appendingPathComponent("pipelines/sample.yaml").path,
                               "--dry-run", "--input", feed.path, "--no-progress"]
        process.currentDirectoryURL = dir
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(text.contains("error: \(feed.path): cannot open for reading (Permission denied)"), "\(text)")
    }

    @Test func dryRunOfTheSampleMatchesItsTruth() throws {
        let summaryPath = FileManager.default.temporaryDirectory.appendingPathComponent("s-\(UUID().uuidString).json")
        let result = try CLI.run(["run", "sample", "--dry-run", "--summary-json", summaryPath.path])
        #expect(result.status == 0)
        let summary = try JSONSerialization.jsonObject(with: Data(contentsOf: summaryPath)) as! [String: Any]
        let truth = try JSONSerialization.jsonObject(with: Data(contentsOf: CLI.packageRoot.appendingPathComponent(
            "pipelines/data/sample.truth.json"))) as! [String: Any]
        #expect(summary["status"] as? String == "succeeded")
        #expect(summary["read"] as? Int == truth["records"] as? Int)
        #expect(summary["rejected"] as? Int == truth["rejects"] as? Int)
        #expect(summary["duplicates"] as? Int == truth["duplicates"] as? Int)
        for key in ["run_id", "pipeline", "inserted", "updated", "unchanged", "withdrawn", "seconds"] {
            #expect(summary[key] != nil, "summary lacks \(key)")
        }
    }

    @Test func stdinInputAndJSONLToStdout() throws {
        let feed = try Data(contentsOf: CLI.packageRoot.appendingPathComponent(
            "Tests/MLSFeedTests/Fixtures/pipeline/small.xml"))
        let result = try CLI.run(["run", "Tests/MLSFeedTests/Fixtures/pipeline/small.yaml", "--dry-run",
                                  "--input", "-", "--output", "-", "--quiet"], stdin: feed)
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 8)
        #expect(lines.first?.hasPrefix(#"{"type":"listing","at":"-:5:3","listing_id":"230012345""#) == true)
    }

    /// `bench-parse --pipeline` reads the file as the pipeline's run does: the nested record path `Listings/Listing`
    /// (the default `xml` record element, `listing`, finds none).
    @Test func benchParseWithAPipelineUsesItsRecordPath() throws {
        let result = try CLI.run(["bench-parse", "pipelines/data/syndication.xml", "--pipeline",
                                  "pipelines/syndication.yaml"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("3 records in "), "\(result.stdout)")
        let plain = try CLI.run(["bench-parse", "pipelines/data/syndication.xml", "--input-format", "xml"])
        #expect(plain.stdout.hasPrefix("0 records in "), "\(plain.stdout)")
        let both = try CLI.run(["bench-parse", "pipelines/data/syndication.xml", "--pipeline",
                                "pipelines/syndication.yaml", "--input-format", "xml"])
        #expect(both.status == 2)
        #expect(both.stderr.hasPrefix("error: --pipeline takes the format and record path from the pipeline file\n"))
    }

    @Test func validateReportsRejectsWithExitOne() throws {
        let result = try CLI.run(["validate", "Tests/MLSFeedTests/Fixtures/pipeline/small.yaml"])
        #expect(result.status == 1)
        #expect(result.stdout.contains(
            "Tests/MLSFeedTests/Fixtures/pipeline/small.xml:7:3: error: MLS 230012347: "
                + #"list_price: not a price ("call agent")"#))
    }

    @Test func embeddedDatabaseStartsFromTwoProcessesAtOnce() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("embedded-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let config = dir.appendingPathComponent("config.yaml").path
        try "database: embedded\ndata_dir: \(dir.path)/data\n".write(toFile: config, atomically: true, encoding: .utf8)
        defer {
            _ = try? CLI.run(["db", "stop", "--config", config])
            try? FileManager.default.removeItem(at: dir)
        }
        let results = Locked<[CLI.Result]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            if let result = try? CLI.run(["db", "start", "--config", config]) { results.update { $0.append(result) } }
        }
        #expect(results.value.map(\.status) == [0, 0], "\(results.value.map(\.stderr))")
        let status = try CLI.run(["db", "status", "--config", config])
        #expect(status.status == 0)
        #expect(status.stdout.hasPrefix("embedded PostgreSQL running: host=\(dir.path)/data/postgres/socket"))
    }
}
