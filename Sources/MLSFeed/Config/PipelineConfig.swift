import Foundation
import XMLStream
import YAMLConfig

/// One pipeline, from `pipelines/NAME.yaml`: source, format, mapping, load policy and per-stage settings.
public struct PipelineConfig: Sendable {
    public var name: String
    package var file: String
    /// The feed id stored with every row (`sdmls`).
    public var source: String
    /// Path, glob, directory or `-`, relative paths resolved against the pipeline file; `--input` overrides it.
    public var input: String?
    /// The source's time zone: naive timestamps are read in it.
    package var timeZone: TimeZone?
    /// The order of the files a glob or directory input names.
    package var order: InputLocator.Order = .name
    /// Whether each input is its own dump (`file`) or all inputs together are one (`all`).
    package var unit: InputUnit = .file
    /// HTTP parameters, auth, paging, timeouts and retries (`source.http`).
    package var fetch = FetchSettings()
    package var parse: ParseSettings
    package var mapping: Mapping
    public var mode: LoadMode = .incremental
    /// The run fails when more than this share of records is rejected.
    package var maxRejectRatio: Double
    /// A full dump holding fewer than this share of the source's active listings withdraws nothing.
    package var withdrawGuard = 0.5
    /// What a full run does with an incomplete dump (`load.on_incomplete`).
    package var onIncomplete: IncompletePolicy = .fail
    /// Staged listings between the merges made while the parse goes on (`load.merge_while_parsing`; 0: at the end).
    package var mergeWhileParsing = LoadOptions.defaultEarlyMergeRows
    /// Seconds a run waits for its source's lock held by another run of the source (`load.lock_timeout`; 0: none).
    package var lockTimeout = LoadOptions.defaultLockTimeout
    /// Stage name → settings.
    package var stages: [String: StageSettings]
    /// How many recent MLS numbers the in-memory dedupe remembers (the database resolves the rest).
    package var dedupeWindow = 100_000
    /// How many records the dedupe stage holds back so a superseded copy can be dropped before it leaves.
    package var dedupeHold = 1_000

    package func stage(_ name: String) -> StageSettings { stages[name] ?? StageSettings() }
}

extension PipelineConfig {
    static let topKeys = ["name", "source", "format", "mapping", "load", "stages"]

    /// Reads and checks a pipeline file; every mistake is a `ConfigError` with file:line:column and key path.
    public static func load(path: String, project: ProjectConfig, environment: [String: String]) throws
        -> PipelineConfig {
        try load(ConfigNode(try YAMLDocument.load(path: path, environment: environment), file: path),
                 project: project, environment: environment)
    }

    /// Checks a pipeline document already read (the fuzz harness's way in); `root.file` is the pipeline's path.
    package static func load(_ root: ConfigNode, project: ProjectConfig, environment: [String: String]) throws
        -> PipelineConfig {
        let path = root.file
        try root.keys(allowed: topKeys)
        let fileName = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let name = try root["name"]?.string() ?? fileName

        let sourceNode = try root.required("source")
        try sourceNode.keys(allowed: ["id", "input", "time_zone", "order", "unit", "http"])
        let source = try sourceNode.required("id").nonBlankString()
        let input = try sourceNode["input"].map { resolve(try $0.string(), relativeTo: path) }
        var zone: TimeZone?
        if let zoneNode = sourceNode["time_zone"] {
            let identifier = try zoneNode.string()
            guard let tz = TimeZone(identifier: identifier) else {
                throw zoneNode.error(
                    "unknown time zone \(quoted(identifier)) (use an IANA name like America/Los_Angeles)")
            }
            zone = tz
        }

        var parse = try ParseSettings(config: try root.required("format"))
        var paths: PathRules?
        switch parse.format {
        case .xml(let xml): paths = PathRules(prefixes: Set(xml.namespaces.keys))
        case .resoJSON: paths = PathRules(prefixes: [])
        default: break
        }

        let mappingNode = try root.required("mapping")
        let mapping: Mapping
        if case .scalar = mappingNode.node.kind {
            let mappingPath = resolve(try mappingNode.string(), relativeTo: path)
            guard FileManager.default.fileExists(atPath: mappingPath) else {
                throw mappingNode.error("mapping file \(quoted(mappingPath)) does not exist")
            }
            mapping = try Mapping(config: ConfigNode(try YAMLDocument.load(path: mappingPath, environment: environment),
                                                     file: mappingPath), paths: paths)
        } else {
            mapping = try Mapping(config: mappingNode, paths: paths)
        }
        if !mapping.multiValue.isEmpty {
            try parse.addMultiValue(mapping.multiValue, at: mappingNode)
        }
        if mapping.hasTimestamps && zone == nil {
            throw sourceNode.error("the mapping has timestamp fields, so the source needs a time_zone")
        }

        var config = PipelineConfig(name: name, file: path, source: source, input: input, timeZone: zone,
                                    parse: parse, mapping: mapping, maxRejectRatio: project.maxRejectRatio,
                                    stages: [:])
        if let order = sourceNode["order"] { config.order = try order.oneOf([("name", .name), ("mtime", .mtime)]) }
        if let unit = sourceNode["unit"] { config.unit = try unit.oneOf(InputUnit.allCases.map { ($0.rawValue, $0) }) }
        config.fetch = try FetchSettings(config: sourceNode["http"])
        if config.fetch.webAPI?.deletion != nil, mapping.entity != .listing, mapping.entity != .agent,
           let deleted = sourceNode["http"]?["deleted_when"] {
            throw deleted.error("deleted_when withdraws listings: a mapping of \(mapping.entity.table) cannot use it")
        }
        if let deletion = config.fetch.webAPI?.deletion, case .resoJSON(var json) = config.parse.format {
            json.alsoRead.append(deletion.field)
            config.parse.format = .resoJSON(json)
        }
        config.fetch.spoolDirectory = project.dataDirectory + "/spool"
        if let load = root["load"] {
            try load.keys(allowed: ["mode", "max_reject_ratio", "withdraw_guard", "on_incomplete",
                                    "merge_while_parsing", "lock_timeout"])
            if let mode = load["mode"] {
                config.mode = try mode.oneOf([("incremental", .incremental), ("full", .full)])
            }
            if let ratio = load["max_reject_ratio"] { config.maxRejectRatio = try ratio.share() }
            if let guardNode = load["withdraw_guard"] { config.withdrawGuard = try guardNode.share() }
            if let rows = load["merge_while_parsing"] { config.mergeWhileParsing = try rows.int(in: 0...10_000_000) }
            if let seconds = load["lock_timeout"] { config.lockTimeout = try seconds.seconds(in: 0...86_400) }
            if let policy = load["on_incomplete"] {
                config.onIncomplete = try policy.oneOf(IncompletePolicy.allCases.map { ($0.rawValue, $0) })
            }
        }
        try config.completeReplication(http: sourceNode["http"], load: root["load"])
        let stagesNode = root["stages"]
        try stagesNode?.keys(allowed: StageSettings.stageNames)
        for stage in StageSettings.stageNames {
            var settings = project.stageDefaults
            if stage == "normalize" || stage == "validate" { settings.workers = max(1, settings.workers) }
            if StageSettings.singleWorker.contains(stage) { settings.workers = 1 }
            if let node = stagesNode?[stage] {
                settings = try StageSettings(config: node, base: settings, stage: stage)
                if stage == "dedupe", let window = node["window"] {
                    config.dedupeWindow = try window.int(in: StageSettings.dedupeWindows)
                }
                if stage == "dedupe", let hold = node["hold"] {
                    config.dedupeHold = try hold.int(in: StageSettings.dedupeHolds)
                }
            }
            config.stages[stage] = settings
        }
        config.parse.batchSize = config.stage("parse").batchSize
        return config
    }

}

extension ParseSettings {
    /// Adds a mapping's `multi_value` keys to the format's own (those already there kept where they are).
    mutating func addMultiValue(_ keys: [String], at node: ConfigNode) throws {
        switch format {
        case .triples:
            throw node.error("the mapping's multi_value needs a format with list fields (rets-compact, xml or "
                             + "reso-json), not triples")
        case .retsCompact(var rets):
            rets.multiValueColumns.formUnion(keys)
            format = .retsCompact(rets)
        case .xml(var xml):
            xml.multiValue += keys.filter { !xml.multiValue.contains($0) }
            format = .xml(xml)
        case .resoJSON(var json):
            json.multiValue += keys.filter { !json.multiValue.contains($0) }
            format = .resoJSON(json)
        }
    }

    /// Reads `format:` — `type` (triples | rets-compact | xml) and the format's element names and options.
    init(config node: ConfigNode) throws {
        let limits = ["max_record_bytes", "max_depth"]
        let common = ["type", "encoding", "sanitize"] + limits
        let type = try node.required("type").oneOf([("triples", 0), ("rets-compact", 1), ("xml", 2),
                                                    ("reso-json", 3)])
        let format: FeedFormat
        switch type {
        case 0:
            try node.keys(allowed: common + ["record", "labels", "keys", "values", "delimiter"])
            var t = TriplesSettings()
            if let v = node["record"] { t.recordElement = try v.string() }
            if let v = node["labels"] { t.labelsElement = try v.string() }
            if let v = node["keys"] { t.keysElement = try v.string() }
            if let v = node["values"] { t.valuesElement = try v.string() }
            if let v = node["delimiter"] {
                t.delimiter = try v.string()
                guard !t.delimiter.isEmpty else { throw v.error("the delimiter cannot be empty") }
            }
            format = .triples(t)
        case 1:
            try node.keys(allowed: common + ["multi_value"])
            var r = RETSSettings()
            if let v = node["multi_value"] { r.multiValueColumns = Set(try v.stringList()) }
            format = .retsCompact(r)
        case 3:
            try node.keys(allowed: ["type", "multi_value"] + limits)
            var json = ResoJSONSettings()
            if let v = node["multi_value"] { json.multiValue = try v.stringList() }
            format = .resoJSON(json)
        default:
            try node.keys(allowed: common + ["record", "namespaces", "multi_value"])
            var x = PlainXMLSettings()
            if let v = node["record"] {
                x.recordElement = try v.nonBlankString()
                do {
                    let path = try RecordPath(parsing: x.recordElement)
                    guard path.attribute == nil, !path.steps.isEmpty,
                          path.steps.allSatisfy({ $0.prefix == nil && $0.predicate == nil }) else {
                        throw v.error("the record is an element name or a path of names, like Listings/Listing")
                    }
                } catch let error as RecordPathError {
                    throw v.error("\(quoted(x.recordElement)) is not a path: \(error.message)")
                }
            }
            if let v = node["namespaces"] {
                for (prefix, uri) in try v.entries() { x.namespaces[prefix] = try uri.nonBlankString() }
            }
            if let v = node["multi_value"] { x.multiValue = try v.stringList() }
            format = .xml(x)
        }
        var encoding: String?
        if let encodingNode = node["encoding"] {
            let name = try encodingNode.string()
            guard XMLPushParser.supportsEncoding(name) else {
                throw encodingNode.error("unknown encoding \(quoted(name)) "
                    + "(use a name like ISO-8859-1 or windows-1252)")
            }
            encoding = name
        }
        self.init(format: format, encoding: encoding, sanitize: try node["sanitize"]?.bool() ?? false,
                  maxRecordBytes: try node["max_record_bytes"]?.int(in: ParseSettings.maxRecordBytesRange)
                      ?? ParseSettings.defaultMaxRecordBytes,
                  maxDepth: try node["max_depth"]?.int(in: ParseSettings.maxDepthRange)
                      ?? ParseSettings.defaultMaxDepth)
    }
}
