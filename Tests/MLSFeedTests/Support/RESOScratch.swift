import Foundation
import Postgres
import PostgresTestSupport
@testable import MLSFeed

/// A scratch directory holding a RESO JSON pipeline over a shipped mapping, and a migrated database: the pipeline runs
/// on pages of records written by the test.
struct RESOScratch {
    let dir: URL
    let database: String
    /// The pipeline file.
    let pipeline: URL

    /// `mapping`: a file under `pipelines/mappings/`, or (`mappingText`) the text of one written beside the
    /// pipeline; `load` and `stages`: the pipeline's sections (flow YAML).
    init(mapping: String = "", mappingText: String? = nil, load: String, stages: String = "{}") throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("reso-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        database = try TestDatabase.migrated()
        pipeline = dir.appendingPathComponent("reso.yaml")
        var mappingFile = CLI.packageRoot.appendingPathComponent("pipelines/mappings/\(mapping)")
        if let mappingText {
            mappingFile = dir.appendingPathComponent("mapping.yaml")
            try mappingText.write(to: mappingFile, atomically: true, encoding: .utf8)
        }
        try """
            name: scratch
            source: { id: actris, time_zone: America/Chicago }
            format: { type: reso-json }
            mapping: \(mappingFile.path)
            load: \(load)
            stages: \(stages)
            """.write(to: pipeline, atomically: true, encoding: .utf8)
    }

    /// The pipeline, rejecting any share of records without failing the run.
    func config() throws -> PipelineConfig {
        var config = try PipelineConfig.load(path: pipeline.path, project: ProjectConfig(), environment: [:])
        config.maxRejectRatio = 1
        return config
    }

    /// Writes `records` (JSON objects) as a page saying `count` records, in a file of its own.
    func page(_ records: [String], count: Int? = nil) throws -> URL {
        let page = dir.appendingPathComponent("page-\(UUID().uuidString).json")
        let counted = count.map { "\"@odata.count\": \($0), " } ?? ""
        try "{\(counted)\"value\": [\n\(records.joined(separator: ",\n"))\n]}"
            .write(to: page, atomically: true, encoding: .utf8)
        return page
    }

    /// Runs the pipeline on a page of `records` into the database.
    func run(_ records: [String], count: Int? = nil, force: Bool = false) throws -> RunSummary {
        var options = RunOptions()
        options.conninfo = database
        options.input = try page(records, count: count).path
        options.force = force
        return try PipelineRunner(config: try config(), options: options).run()
    }

    func query(_ sql: String) throws -> [[String?]] {
        try Connection(database).execute(sql).rows
    }
}
