import Foundation

/// The Prometheus text exposition format (version 0.0.4) of `RunMetrics`, for node_exporter's textfile collector:
/// every family with its HELP and TYPE lines and all its samples together, labels `pipeline` and `source` first.
package enum PrometheusText {
    /// Every status a run can end with, each a series of `mlsfeed_last_run_status`.
    package static let statuses: [RunSummary.Status] = [.succeeded, .unchanged, .failed, .interrupted]
    /// Every kind of failure, each a series of `mlsfeed_last_run_failure`.
    package static let failures: [RunSummary.Failure] = [.input, .configuration, .refused, .unavailable,
                                                         .interrupted]

    /// The metric that carries the last success, also read back by `lastSuccess(in:pipeline:source:)`.
    static let lastSuccessName = "mlsfeed_last_success_timestamp_seconds"

    /// The exposition text of `metrics` (one entry per pipeline and source).
    package static func render(_ metrics: [RunMetrics]) -> String {
        var out = ""
        func family(_ name: String, _ help: String, _ samples: (RunMetrics) -> [(labels: String, value: String)]) {
            let lines = metrics.flatMap { entry in
                samples(entry).map { "\(name){\(baseLabels(entry))\($0.labels)} \($0.value)\n" }
            }
            guard !lines.isEmpty else { return }
            out += "# HELP \(name) \(help)\n# TYPE \(name) gauge\n" + lines.joined()
        }
        family("mlsfeed_last_run_status", "How the last run of the pipeline for the source ended: 1 for its "
               + "status, 0 for the others.") { entry in
            statuses.map { (",status=\"\($0.rawValue)\"", $0 == entry.status ? "1" : "0") }
        }
        family("mlsfeed_last_run_failure", "Why the last run failed: 1 for its kind (input: exit 1, configuration: "
               + "exit 2, refused: exit 3, unavailable: exit 4, interrupted: exit 130/143), all 0 when it did not "
               + "fail.") { entry in
            failures.map { (",failure=\"\($0.rawValue)\"", $0 == entry.failure ? "1" : "0") }
        }
        family("mlsfeed_last_run_id", "The run ledger id of the last run (mlsfeed runs show ID).") { entry in
            entry.runID.map { [("", String($0))] } ?? []
        }
        family("mlsfeed_last_run_timestamp_seconds", "When the last run ended, in seconds since the epoch.") {
            [("", seconds($0.finishedAt))]
        }
        family("mlsfeed_last_run_duration_seconds", "How long the last run took (all its inputs together).") {
            [("", String(format: "%.3f", $0.seconds))]
        }
        family(lastSuccessName, "When a run last ended succeeded or unchanged, in seconds since the epoch.") {
            $0.lastSuccess.map { [("", seconds($0))] } ?? []
        }
        family("mlsfeed_last_run_records", "Records of the last run by outcome.") { entry in
            RunMetrics.recordOutcomes.map { (",outcome=\"\($0)\"", String(entry.records[$0] ?? 0)) }
        }
        family("mlsfeed_last_run_agents", "Agents of the last run by outcome.") { entry in
            RunMetrics.agentOutcomes.map { (",outcome=\"\($0)\"", String(entry.agents[$0] ?? 0)) }
        }
        return out
    }

    /// The last success a previous `render` wrote for `pipeline` and `source` into `text`, if any: what a run that
    /// cannot reach the ledger still knows.
    package static func lastSuccess(in text: String, pipeline: String, source: String) -> Date? {
        let prefix = "\(lastSuccessName){\(baseLabels(pipeline: pipeline, source: source))} "
        for line in text.split(separator: "\n") where line.hasPrefix(prefix) {
            if let value = Double(line.dropFirst(prefix.count)), value.isFinite {
                return Date(timeIntervalSince1970: value)
            }
        }
        return nil
    }

    private static func baseLabels(_ entry: RunMetrics) -> String {
        baseLabels(pipeline: entry.pipeline, source: entry.source)
    }

    private static func baseLabels(pipeline: String, source: String) -> String {
        "pipeline=\"\(escaped(pipeline))\",source=\"\(escaped(source))\""
    }

    /// A label value with `\`, `"` and line feeds escaped, as the format requires.
    static func escaped(_ value: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": out.append(contentsOf: "\\\\".unicodeScalars)
            case "\"": out.append(contentsOf: "\\\"".unicodeScalars)
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    private static func seconds(_ date: Date) -> String {
        String(format: "%.3f", date.timeIntervalSince1970)
    }
}
