import Foundation
import MLSFeed
import Postgres

/// `--metrics-file PATH` (or `metrics_file:`): after a pipeline's runs, its metrics in Prometheus text format for
/// node_exporter's textfile collector, written atomically (a temporary file in the same directory, renamed over
/// it) so the collector never reads half a file. `{pipeline}` in the path becomes the pipeline's name.
final class MetricsFile {
    let path: String
    private let pipeline: String
    private let source: String
    /// The database to ask for the last success when no unit of this invocation succeeded (set once known).
    var conninfo: String?
    private let connection: ConnectionOptions
    private var summaries: [RunSummary] = []

    /// Checks that a file can be created in the directory of `template` (with `{pipeline}` replaced); a usage
    /// error names the path and the reason.
    init(template: String, pipeline: String, source: String, connection: ConnectionOptions) throws {
        path = template.replacingOccurrences(of: "{pipeline}", with: pipeline.replacingOccurrences(of: "/", with: "_"))
        self.pipeline = pipeline
        self.source = source
        var options = connection
        options.connectTimeout = min(options.connectTimeout, 10)
        self.connection = options
        let probe = temporaryPath
        guard FileManager.default.createFile(atPath: probe, contents: nil) else {
            let reason = String(cString: strerror(errno))
            throw UsageError(message: "--metrics-file \(path): cannot write there (\(reason))")
        }
        try? FileManager.default.removeItem(atPath: probe)
    }

    /// Keeps a unit's summary for the metrics.
    func add(_ summary: RunSummary) {
        summaries.append(summary)
    }

    /// Writes the metrics of the units run, and of `error` when the invocation ended with one (the database
    /// unreachable at the start of a unit, a signal); a failure to write is reported on stderr and does not change
    /// the run's exit code.
    func write(error: (any Error)?, signal: Int32?) {
        let now = Date()
        var metrics = RunMetrics.of(summaries, finishedAt: now)
        if let error {
            let failure: RunSummary.Failure = signal != nil ? .interrupted : RunSummary.Failure(of: error)
            if metrics.isEmpty {
                metrics = [RunMetrics(pipeline: pipeline, source: source, failure: failure, finishedAt: now)]
            } else {
                for i in metrics.indices {
                    metrics[i].status = failure == .interrupted ? .interrupted : .failed
                    metrics[i].failure = failure
                }
            }
        }
        for i in metrics.indices where metrics[i].lastSuccess == nil {
            metrics[i].lastSuccess = lastSuccess(pipeline: metrics[i].pipeline, source: metrics[i].source)
        }
        let temporary = temporaryPath
        do {
            try Data(PrometheusText.render(metrics).utf8).write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, path) == 0 else {
                throw UsageError(message: String(cString: strerror(errno)))
            }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            printError("error: --metrics-file \(path): could not write the metrics (\(error))")
        }
    }

    /// The last success from the ledger, else from the metrics file this replaces (the ledger may be what failed).
    private func lastSuccess(pipeline: String, source: String) -> Date? {
        if let conninfo, let connection = try? Connection(conninfo, options: connection),
           let found = try? Ledger(connection).lastSuccess(pipeline: pipeline, source: source) {
            return found
        }
        guard let previous = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return PrometheusText.lastSuccess(in: previous, pipeline: pipeline, source: source)
    }

    private var temporaryPath: String {
        let url = URL(fileURLWithPath: path)
        // A dot name: node_exporter reads only *.prom files, so it never sees the temporary one.
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
    }
}
