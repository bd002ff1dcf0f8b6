import Foundation
import MLSFeed
import Postgres

/// `--metrics-file PATH` (or `metrics_file:`): after a pipeline's runs, its metrics in Prometheus text format for
/// node_exporter's textfile collector, written atomically (a temporary file in the same directory, renamed over
/// it) so the collector never reads half a file. `{pipeline}` in the path becomes the pipeline's name; without it,
/// the pipelines of a several-pipeline run share the file, written once the last of them ended. Its methods may be
/// called from any job's thread.
final class MetricsFile: @unchecked Sendable {
    let path: String
    /// The pipelines (with their sources) the file reports: what it says when the invocation failed before any ran.
    private let pipelines: [(pipeline: String, source: String)]
    /// The database to ask for the last success when no unit of this invocation succeeded (set once known, before
    /// any run starts).
    var conninfo: String?
    private let connection: ConnectionOptions
    private let lock = NSLock()
    private var summaries: [RunSummary] = []
    /// How many of `pipelines` have not ended yet (`finished`).
    private var running: Int
    /// Whether the file was written.
    private var done = false

    /// The file of one pipeline: checks that a file can be created in the directory of `template` (with
    /// `{pipeline}` replaced); a usage error names the path and the reason.
    convenience init(template: String, pipeline: String, source: String, connection: ConnectionOptions) throws {
        try self.init(path: Self.path(template: template, pipeline: pipeline), pipelines: [(pipeline, source)],
                      connection: connection)
    }

    /// The file at `path` of `pipelines`, checked as above.
    init(path: String, pipelines: [(pipeline: String, source: String)], connection: ConnectionOptions) throws {
        self.path = path
        self.pipelines = pipelines
        running = pipelines.count
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

    /// The path of `template` for `pipeline`: `{pipeline}` replaced by its name (a `/` in it as `_`).
    static func path(template: String, pipeline: String) -> String {
        template.replacingOccurrences(of: "{pipeline}", with: pipeline.replacingOccurrences(of: "/", with: "_"))
    }

    /// Keeps a unit's summary for the metrics.
    func add(_ summary: RunSummary) {
        lock.withLock { summaries.append(summary) }
    }

    /// One of the file's pipelines ended (its units' summaries were added): the file is written when it was the
    /// last of them.
    func finished(signal: Int32?) {
        let last = lock.withLock {
            running -= 1
            return running == 0
        }
        if last { write(error: nil, signal: signal) }
    }

    /// Whether the file still waits to be written and has something to say (a pipeline of it ran).
    var pending: Bool {
        lock.withLock { !done && !summaries.isEmpty }
    }

    /// Whether the file was written.
    var written: Bool {
        lock.withLock { done }
    }

    /// Writes the metrics of the units run, and of `error` when the invocation ended with one (the database
    /// unreachable at the start of a unit, a signal); a failure to write is reported on stderr and does not change
    /// the run's exit code.
    func write(error: (any Error)?, signal: Int32?) {
        let now = Date()
        let summaries = lock.withLock {
            done = true
            return self.summaries
        }
        var metrics = RunMetrics.of(summaries, finishedAt: now)
        if let error {
            let failure: RunSummary.Failure = signal != nil ? .interrupted : RunSummary.Failure(of: error)
            if metrics.isEmpty {
                metrics = pipelines.map {
                    RunMetrics(pipeline: $0.pipeline, source: $0.source, failure: failure, finishedAt: now)
                }
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
