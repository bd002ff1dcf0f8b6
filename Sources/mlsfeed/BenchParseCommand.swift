import Foundation
import MLSFeed

/// `mlsfeed bench-parse FILE`: the parse stage alone, for the benchmark against `xmllint --stream`.
enum BenchParseCommand {
    static func main(_ args: [String]) throws -> Int32 {
        let parsed = try Arguments(args, command: CommandHelp.benchParse)
        guard parsed.positionals.count == 1 else { throw UsageError(message: "expected one FILE") }
        let path = parsed.positionals[0]
        if let pipeline = try parsed.pipelineFile("pipeline") {
            guard parsed["input-format"] == nil && parsed["record"] == nil else {
                throw UsageError(message: "--pipeline takes the format and record path from the pipeline file")
            }
            let context = try Context(configFlag: parsed["config"])
            let config = try PipelineConfig.load(path: pipeline, project: context.project,
                                                 environment: context.environment)
            return try time(path, settings: config.parse, mapping: config.mapping)
        }
        if parsed["input-format"] == "reso-json" { return try json(path, makeStrings: parsed.has("strings")) }
        let format: FeedFormat
        switch parsed["input-format"] ?? "triples" {
        case "triples":
            var t = TriplesSettings()
            if let record = parsed["record"] { t.recordElement = record }
            format = .triples(t)
        case "rets-compact": format = .retsCompact(RETSSettings())
        case "xml":
            var x = PlainXMLSettings()
            if let record = parsed["record"] { x.recordElement = record }
            format = .xml(x)
        case let other:
            throw UsageError(message: "--input-format must be triples, rets-compact, xml or reso-json, got \(other)")
        }
        return try time(path, settings: ParseSettings(format: format), mapping: nil)
    }

    /// Times `parseOnly` on the file and prints records, seconds and MB/s.
    private static func time(_ path: String, settings: ParseSettings, mapping: Mapping?) throws -> Int32 {
        let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.doubleValue ?? 0
        let started = Date()
        let result = try parseOnly(path: path, settings: settings, mapping: mapping)
        let seconds = Date().timeIntervalSince(started)
        print(String(format: "%d records in %.3f s, %.1f MB/s", result.records, seconds, bytes / 1e6 / seconds))
        return 0
    }

    /// `--input-format reso-json`: the JSON parser alone (events counted, nothing kept).
    private static func json(_ path: String, makeStrings: Bool) throws -> Int32 {
        let started = Date()
        let counts = try JSONParseBench.run(path: path, makeStrings: makeStrings)
        let seconds = Date().timeIntervalSince(started)
        print(String(format: "%d records, %d events in %.3f s, %.1f MB/s", counts.records, counts.events, seconds,
                     Double(counts.bytes) / 1e6 / seconds))
        return 0
    }
}
