import Foundation
import Testing
@testable import MLSFeed
import YAMLConfig

@Suite struct PipelineConfigTests {
    /// Writes `text` as `nightly.yaml` beside a copy of the shipped mapping; returns its path.
    static func write(_ text: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlsfeed-cfg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("mappings"),
                                                withIntermediateDirectories: true)
        let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../../pipelines/mappings/servlet-triples.yaml").standardizedFileURL
        try FileManager.default.copyItem(at: shipped, to: dir.appendingPathComponent("mappings/servlet-triples.yaml"))
        let path = dir.appendingPathComponent("nightly.yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func load(_ text: String, environment: [String: String] = [:]) throws -> PipelineConfig {
        try PipelineConfig.load(path: try write(text), project: ProjectConfig(), environment: environment)
    }

    static let valid = """
        source:
          id: sdmls
          input: data/dump.xml
          time_zone: America/Los_Angeles
        format:
          type: triples
          delimiter: "|"
        mapping: mappings/servlet-triples.yaml
        load:
          mode: full
        stages:
          normalize: { workers: 2 }
          load:
            batch_size: 5000
        """

    @Test func validPipelineLoads() throws {
        let config = try Self.load(Self.valid)
        #expect(config.name == "nightly")
        #expect(config.source == "sdmls")
        #expect(config.mode == .full)
        #expect(config.stage("normalize").workers == 2)
        #expect(config.stage("load").batchSize == 5000)
        #expect(config.mapping.fields.count == 32)
        #expect(config.input?.hasSuffix("/data/dump.xml") == true)
    }

    @Test(arguments: [
        (valid.replacingOccurrences(of: "batch_size: 5000", with: "batch_size: lots"),
         #"nightly.yaml:14:17: error: stages.load.batch_size: expected an integer, got "lots""#),
        (valid.replacingOccurrences(of: "  load:\n    batch_size", with: "  lod:\n    batch_size"),
         #"nightly.yaml:13:3: error: stages.lod: unknown key "lod"; did you mean "load"?"#),
        (valid.replacingOccurrences(of: "mode: full", with: "mode: nightly"),
         #"nightly.yaml:10:9: error: load.mode: expected one of: incremental, full, got "nightly""#),
        (valid.replacingOccurrences(of: "type: triples", with: "type: csv"),
         #"nightly.yaml:6:9: error: format.type: expected one of: triples, rets-compact, xml, reso-json, got "csv""#),
        (valid.replacingOccurrences(of: "  time_zone: America/Los_Angeles\n", with: ""),
         "nightly.yaml:2:3: error: source: the mapping has timestamp fields, so the source needs a time_zone"),
        (valid.replacingOccurrences(of: "workers: 2", with: "workers: 0"),
         "nightly.yaml:12:25: error: stages.normalize.workers: expected an integer from 1 to 64, got 0"),
        (valid.replacingOccurrences(of: "  load:\n    batch_size: 5000", with: "  dedupe: { workers: 3 }"),
         "nightly.yaml:13:22: error: stages.dedupe.workers: the dedupe stage keeps state and runs exactly 1 worker"),
        (valid.replacingOccurrences(of: "id: sdmls", with: "id: ${MLS_SOURCE}"),
         "nightly.yaml:2:7: error: source.id: environment variable MLS_SOURCE is not set"),
    ])
    func mistakesPointAtFileLineColumn(text: String, expected: String) throws {
        let path = try Self.write(text)
        let directory = String(path.dropLast("nightly.yaml".count))
        #expect {
            _ = try PipelineConfig.load(path: path, project: ProjectConfig(), environment: [:])
        } throws: { error in
            "\(error)" == directory + expected
        }
    }

    /// Settings out of their bounds, each at its line and column (none may crash the process or accept nonsense).
    static let outOfBounds: [(String, String)] = [
        (valid.replacingOccurrences(of: "batch_size: 5000", with: "batch_size: 2147483648"),
         "nightly.yaml:14:17: error: stages.load.batch_size: expected an integer from 1 to 100000, got 2147483648"),
        (valid.replacingOccurrences(of: "normalize: { workers: 2 }", with: "parse: { queue_depth: 100000 }"),
         "nightly.yaml:12:25: error: stages.parse.queue_depth: expected an integer from 1 to 64, got 100000"),
        (valid.replacingOccurrences(of: "normalize: { workers: 2 }", with: "dedupe: { window: 0 }"),
         "nightly.yaml:12:21: error: stages.dedupe.window: expected an integer from 1 to 10000000, got 0"),
        (valid.replacingOccurrences(of: "mode: full", with: "max_reject_ratio: 5"),
         "nightly.yaml:10:21: error: load.max_reject_ratio: expected a share between 0 and 1, got 5"),
        (valid.replacingOccurrences(of: "mode: full", with: "withdraw_guard: -3"),
         "nightly.yaml:10:19: error: load.withdraw_guard: expected a share between 0 and 1, got -3"),
        (valid.replacingOccurrences(of: "id: sdmls", with: "id: ${MLS_SOURCE:-}"),
         "nightly.yaml:2:7: error: source.id: expected a non-empty value"),
        (valid.replacingOccurrences(of: "id: sdmls", with: "id: \"  \""),
         "nightly.yaml:2:7: error: source.id: expected a non-empty value"),
        (valid.replacingOccurrences(of: "delimiter: \"|\"", with: "max_depth: 0"),
         "nightly.yaml:7:14: error: format.max_depth: expected an integer from 1 to 1024, got 0"),
        (valid.replacingOccurrences(of: "delimiter: \"|\"", with: "max_depth: 20000"),
         "nightly.yaml:7:14: error: format.max_depth: expected an integer from 1 to 1024, got 20000"),
        (valid.replacingOccurrences(of: "delimiter: \"|\"", with: "max_record_bytes: 512"),
         "nightly.yaml:7:21: error: format.max_record_bytes: expected an integer from 1024 to 1073741824, got 512"),
        (valid.replacingOccurrences(of: "mode: full", with: "lock_timeout: -1"),
         "nightly.yaml:10:17: error: load.lock_timeout: expected seconds from 0 to 86400, got -1"),
    ]

    /// The limits every format takes, and the source lock's wait, read with their defaults.
    @Test func limitsAndTheLockTimeoutAreReadForEveryFormat() throws {
        #expect(try Self.load(Self.valid).parse.maxDepth == 256)
        #expect(try Self.load(Self.valid).parse.maxRecordBytes == 16 << 20)
        #expect(try Self.load(Self.valid).lockTimeout == 300)
        let set = Self.valid.replacingOccurrences(of: "delimiter: \"|\"",
                                                  with: "max_depth: 64\n  max_record_bytes: 2048")
            .replacingOccurrences(of: "mode: full", with: "mode: full\n  lock_timeout: 0.5")
        let config = try Self.load(set)
        #expect(config.parse.maxDepth == 64)
        #expect(config.parse.maxRecordBytes == 2048)
        #expect(config.lockTimeout == 0.5)
    }

    @Test(arguments: outOfBounds)
    func settingsOutOfBoundsPointAtFileLineColumn(text: String, expected: String) throws {
        try mistakesPointAtFileLineColumn(text: text, expected: expected)
    }

    static let nestedXML = """
        source: { id: listhub, time_zone: UTC }
        format: { type: xml, record: Listings/Listing, namespaces: { commons: "http://rets.org/xsd/RETSCommons" } }
        mapping:
          fields:
            listing_id: { from: MlsNumber, type: text }
            city: { from: Address/commons:City, type: text }
        """

    @Test(arguments: [
        (nestedXML.replacingOccurrences(of: "Address/commons:City", with: "Address//City"),
         #"nightly.yaml:6:19: error: mapping.fields.city.from: "Address//City" is not a path: "Address//City" has "#
            + #"an empty step ("//" or a leading or trailing "/")"#),
        (nestedXML.replacingOccurrences(of: "Address/commons:City", with: "Address/rc:City"),
         #"nightly.yaml:6:19: error: mapping.fields.city.from: the path "Address/rc:City" uses the prefix "rc", "#
            + "which format.namespaces does not declare"),
        (nestedXML.replacingOccurrences(of: "record: Listings/Listing", with: "record: Listing/@ID"),
         #"nightly.yaml:2:30: error: format.record: the record is an element name or a path of names, like "#
            + "Listings/Listing"),
        (nestedXML + "\n  embedded_agent:\n    agent_mls_id: { from: \"Phone[@type=x]\", type: text }",
         #"nightly.yaml:8:27: error: mapping.embedded_agent.agent_mls_id.from: "Phone[@type=x]" is not a path: "#
            + #""Phone[@type=x]": a predicate reads [@attribute='value']"#),
    ])
    func pathMistakesPointAtFileLineColumn(text: String, expected: String) throws {
        try mistakesPointAtFileLineColumn(text: text, expected: expected)
    }

    @Test func environmentDefaultsExpand() throws {
        let text = Self.valid.replacingOccurrences(of: "id: sdmls", with: "id: ${MLS_SOURCE:-crmls}")
        #expect(try Self.load(text).source == "crmls")
        #expect(try Self.load(text, environment: ["MLS_SOURCE": "sdmls"]).source == "sdmls")
    }
}
