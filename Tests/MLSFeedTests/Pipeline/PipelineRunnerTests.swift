import Foundation
import Testing
@testable import MLSFeed

/// The whole pipeline in a dry run: real files, real libxml2, every stage; no database.
@Suite struct PipelineRunnerTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/pipeline").standardizedFileURL

    /// A dry run with `workers` normalize workers and as many validate workers unless `validateWorkers` says.
    static func dryRun(_ pipeline: String, workers: Int = 1, validateWorkers: Int? = nil, output: String? = nil,
                       input: String? = nil) throws -> RunSummary {
        var config = try PipelineConfig.load(path: fixtures.appendingPathComponent(pipeline).path,
                                             project: ProjectConfig(), environment: [:])
        config.stages["normalize"]?.workers = workers
        config.stages["validate"]?.workers = validateWorkers ?? workers
        config.parse.batchSize = 2
        var options = RunOptions()
        options.dryRun = true
        options.output = output
        options.input = input
        return try PipelineRunner(config: config, options: options).run()
    }

    /// As many normalize as validate workers run both on one thread each (`StageChain`); other counts run apart.
    @Test(arguments: [(1, 1), (3, 3), (2, 1), (1, 2)])
    func smallFeedMatchesTheGoldenOutputByteForByte(workers: Int, validateWorkers: Int) throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("mlsfeed-\(UUID().uuidString).jsonl")
        let summary = try Self.dryRun("small.yaml", workers: workers, validateWorkers: validateWorkers,
                                      output: out.path)
        #expect(summary.stages.map(\.name) == ["fetch", "parse", "normalize", "validate", "dedupe", "load"])
        #expect(summary.stages.first { $0.name == "validate" }?.itemsIn == 7)
        #expect(summary.status == .succeeded)
        #expect(summary.read == 7)
        #expect(summary.rejected == 2)
        #expect(summary.duplicates == 2)
        let produced = try String(contentsOf: out, encoding: .utf8)
            .replacingOccurrences(of: Self.fixtures.path + "/", with: "")
        let golden = try String(contentsOf: Self.fixtures.appendingPathComponent("small.golden.jsonl"), encoding: .utf8)
        #expect(produced == golden)
    }

    /// Found by the benchmark: `--output /dev/null` replaced the device with a regular file (the output was created
    /// by an atomic rename). The output is opened in place: a symlink stays a symlink and its target gets the lines.
    @Test func theOutputIsWrittenInPlaceNotReplaced() throws {
        let dir = NSTemporaryDirectory() + "mlsfeed-output-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let target = dir + "/target.jsonl"
        let link = dir + "/link.jsonl"
        #expect(FileManager.default.createFile(atPath: target, contents: Data("old\n".utf8)))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let summary = try Self.dryRun("small.yaml", output: link)
        #expect(summary.status == .succeeded)
        let attributes = try FileManager.default.attributesOfItem(atPath: link)
        #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
        let written = try String(contentsOfFile: target, encoding: .utf8)
        #expect(written.hasPrefix("{\"type\":") && !written.contains("old\n"))
    }

    @Test func summaryCountsIssuesAndReasons() throws {
        let summary = try Self.dryRun("small.yaml")
        #expect(summary.rejectReasons == [#"list_price: 1 not a price ("call agent")"#,
                                          "record: 1 field count differs from keys"])
        #expect(summary.issues == [#"agent.email: 1 not an email address ("ann@example")"#])
        #expect(summary.sampleRejects.count == 2)
        #expect(summary.json.contains(#""status":"succeeded","read":7,"rejected":2,"duplicates":2,"#))
    }

    @Test func malformedFeedFailsTheRunWithPosition() throws {
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID().uuidString).xml")
        try "<dump><keys>mls_number|status|list_price</keys><listing><values>1|A|5</values></listin>\n</dump>"
            .write(to: broken, atomically: true, encoding: .utf8)
        let summary = try Self.dryRun("small.yaml", input: broken.path)
        #expect(summary.status == .failed)
        #expect(summary.error?.hasPrefix("\(broken.path):1:") == true)
        #expect(summary.error?.contains("error:") == true)
    }

    @Test func tooManyRejectsFailTheRun() throws {
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).xml")
        try "<dump><keys>mls_number|status|list_price</keys><listing><values>1|A|TBD</values></listing></dump>"
            .write(to: bad, atomically: true, encoding: .utf8)
        let summary = try Self.dryRun("small.yaml", input: bad.path)
        #expect(summary.status == .failed)
        #expect(summary.error == "error: \(bad.path): 1 of 1 records rejected (100.0%), more than max_reject_ratio "
            + "50%; nothing was loaded")
        #expect(summary.failure == .refused)
    }

    @Test func missingInputIsAnError() {
        #expect(throws: FetchError("/nonexistent/feed.xml: no such file or directory")) {
            _ = try Self.dryRun("small.yaml", input: "/nonexistent/feed.xml")
        }
    }
}

/// The shipped RESO and agent-roster mappings, end to end in dry runs.
@Suite struct ShippedMappingTests {
    static func lines(_ pipeline: String) throws -> (RunSummary, [String]) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("m-\(UUID().uuidString).jsonl")
        let summary = try PipelineRunnerTests.dryRun(pipeline, output: out.path)
        let text = try String(contentsOf: out, encoding: .utf8)
            .replacingOccurrences(of: PipelineRunnerTests.fixtures.path + "/", with: "")
        return (summary, text.split(separator: "\n").map(String.init))
    }

    @Test func resoNamedPlainXML() throws {
        let (summary, lines) = try Self.lines("reso.yaml")
        #expect(summary.read == 2)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix(#"{"type":"listing","at":"reso.xml:3:3","listing_id":"R-0001","#
            + #""standard_status":"Active","property_type":"Residential","list_price":725000,"#
            + #""modification_timestamp":"2026-11-27T18:30:00Z","bedrooms_total":4,"city":"Carlsbad","#
            + #""postal_code":"92008","list_agent_mls_id":"A-77","extra":{"View":["Ocean","Hills"]},"#))
        #expect(lines[1].hasPrefix(#"{"type":"agent","at":"reso.xml:3:3","agent_mls_id":"A-77","first_name":"Mia","#
            + #""email":"mia@example.com","#))
        #expect(lines[2].contains(#""reasons":["list_price: not a price (\"TBD\")"]"#))
    }

    @Test func agentRosterUsesEmailWhenThereIsNoID() throws {
        let (summary, lines) = try Self.lines("roster.yaml")
        #expect(summary.read == 3)
        #expect(summary.rejected == 1)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix(#"{"type":"agent","at":"roster.xml:4:3","agent_mls_id":"AG1","first_name":"Jane","#
            + #""last_name":"Doe","office_mls_id":"OF1","office_name":"Pacific Realty","#
            + #""office_phone":"(619) 555-0134","mobile_phone":"(858) 555-0199","email":"jdoe@example.com","#))
        #expect(lines[1].contains(#""agent_mls_id":"ann@example.com""#))
        #expect(lines[2].contains(#""reasons":["agent_mls_id: required field is missing"]"#))
    }
}
