import Foundation
import Postgres
import YAMLConfig

/// Project-wide defaults from `config.yaml`: database, data directory, log format and stage defaults.
public struct ProjectConfig: Sendable {
    /// A libpq URL or key=value string, or nil for the embedded cluster.
    public var database: String?
    /// Where the embedded cluster and run state live (`.mlsfeed/`).
    public var dataDirectory: String = ".mlsfeed"
    package enum LogFormat: String, Sendable { case text, json }
    package var logFormat: LogFormat = .text
    package var stageDefaults = StageSettings()
    public var maxRejectRatio = 0.05
    /// How long database connections may wait: to connect, for a lock, for a statement (`timeouts:`).
    package var timeouts = ConnectionOptions()
    /// Where `mlsfeed run` writes Prometheus metrics after its runs (`metrics_file:`, relative to config.yaml;
    /// `{pipeline}` is replaced by the pipeline's name); nil writes none.
    public var metricsFile: String?

    public init() {}

    /// Reads `config.yaml`; relative paths in it are relative to the file's folder.
    public static func load(path: String, environment: [String: String]) throws -> ProjectConfig {
        try load(ConfigNode(try YAMLDocument.load(path: path, environment: environment), file: path))
    }

    /// Checks a `config.yaml` document already read (the fuzz harness's way in); `root.file` is its path.
    package static func load(_ root: ConfigNode) throws -> ProjectConfig {
        let path = root.file
        try root.keys(allowed: ["database", "data_dir", "log_format", "stages", "max_reject_ratio", "timeouts",
                                "metrics_file"])
        var config = ProjectConfig()
        if let db = root["database"] {
            let value = try db.string()
            config.database = value == "embedded" || value.isEmpty ? nil : value
        }
        if let dir = root["data_dir"] {
            config.dataDirectory = resolve(try dir.string(), relativeTo: path)
        } else {
            config.dataDirectory = resolve(".mlsfeed", relativeTo: path)
        }
        if let format = root["log_format"] { config.logFormat = try format.oneOf([("text", .text), ("json", .json)]) }
        if let file = root["metrics_file"] { config.metricsFile = resolve(try file.nonBlankString(), relativeTo: path) }
        if let ratio = root["max_reject_ratio"] { config.maxRejectRatio = try ratio.share() }
        if let timeouts = root["timeouts"] {
            try timeouts.keys(allowed: ["connect", "lock", "statement"])
            if let node = timeouts["connect"] { config.timeouts.connectTimeout = try node.seconds(in: 1...3600) }
            if let node = timeouts["lock"] { config.timeouts.lockTimeout = try node.seconds(in: 0...86_400) }
            if let node = timeouts["statement"] { config.timeouts.statementTimeout = try node.seconds(in: 0...604_800) }
        }
        if let stages = root["stages"] {
            try stages.keys(allowed: ["defaults"])
            if let defaults = stages["defaults"] {
                config.stageDefaults = try StageSettings(config: defaults, base: StageSettings(), stage: nil)
            }
        }
        return config
    }

    /// The database to use: `--database`, then `MLSFEED_DATABASE_URL`, then the libpq variables, then config.yaml;
    /// nil means the embedded cluster.
    package func resolvedDatabase(flag: String?, environment: [String: String]) -> String? {
        if let flag, !flag.isEmpty { return flag == "embedded" ? nil : flag }
        if let url = environment["MLSFEED_DATABASE_URL"], !url.isEmpty { return url == "embedded" ? nil : url }
        let libpq = ["PGHOST", "PGHOSTADDR", "PGDATABASE", "PGSERVICE", "PGPORT", "PGUSER"]
        if libpq.contains(where: { environment[$0].map { !$0.isEmpty } ?? false }) { return "" }
        return database
    }
}

extension StageSettings {
    init(config node: ConfigNode, base: StageSettings, stage: String?) throws {
        try node.keys(allowed: ["workers", "batch_size", "queue_depth"] + (stage == "dedupe" ? ["window", "hold"] : []))
        self = base
        if let workers = node["workers"] {
            let n = try workers.int(in: StageSettings.workerCounts)
            if let stage, StageSettings.singleWorker.contains(stage), n != 1 {
                throw workers.error("the \(stage) stage keeps state and runs exactly 1 worker")
            }
            self.workers = n
        }
        if let size = node["batch_size"] { batchSize = try size.int(in: StageSettings.batchSizes) }
        if let depth = node["queue_depth"] { queueDepth = try depth.int(in: StageSettings.queueDepths) }
    }
}

/// `path` resolved against the folder of `file` (unless absolute, `-`, or a URL); stays relative when `file` is,
/// so positions in messages read `pipelines/data/sample.xml:12:3` rather than a machine-specific absolute path.
func resolve(_ path: String, relativeTo file: String) -> String {
    if path.hasPrefix("/") || path == "-" || path.contains("://") { return path }
    let folder = (file as NSString).deletingLastPathComponent
    let joined = folder.isEmpty ? path : (folder as NSString).appendingPathComponent(path)
    var parts: [String] = []
    for part in joined.split(separator: "/", omittingEmptySubsequences: false).map(String.init) {
        if part == "." || (part.isEmpty && !parts.isEmpty) { continue }
        if part == "..", let last = parts.last, last != "..", !last.isEmpty {
            parts.removeLast()
        } else {
            parts.append(part)
        }
    }
    return parts.joined(separator: "/")
}
