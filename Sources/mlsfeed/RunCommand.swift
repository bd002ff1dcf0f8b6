import Dispatch
import Foundation
import MLSFeed
import YAMLConfig

/// `mlsfeed run` and `mlsfeed validate`.
enum RunCommand {
    static func main(_ args: [String], validateOnly: Bool) throws -> Int32 {
        let parsed = try Arguments(args, command: validateOnly ? CommandHelp.validate : CommandHelp.run)
        let summaryFile = try parsed["summary-json"].map(SummaryFile.init)
        var metricsFile: MetricsFile?
        do {
            let code = try run(parsed, validateOnly: validateOnly, summaryFile: summaryFile, metricsFile: &metricsFile)
            metricsFile?.write(error: nil, signal: Signals.shared.first)
            return code
        } catch {
            metricsFile?.write(error: error, signal: Signals.shared.first)
            // A failure before or outside any run still leaves its summary, never a stale one.
            let code = Signals.shared.first.map(Signals.exitCode) ?? exitCode(for: error)
            let failure = RunSummary.Failure(of: error)
            let kind = code == 2 && failure != .configuration ? "usage" : Signals.shared.first != nil ? "interrupted"
                : failure.rawValue
            try? summaryFile?.write(failure: kind, exitCode: code, error: describe(error))
            throw error
        }
    }

    private static func run(_ parsed: Arguments, validateOnly: Bool, summaryFile: SummaryFile?,
                            metricsFile: inout MetricsFile?) throws -> Int32 {
        guard parsed.positionals.count == 1 else {
            throw UsageError(message: parsed.positionals.isEmpty ? "missing PIPELINE" : "expected one PIPELINE")
        }
        let context = try Context(configFlag: parsed["config"])
        let pipelinePath = try locatePipeline(parsed.positionals[0])
        let config = try PipelineConfig.load(path: pipelinePath, project: context.project,
                                             environment: context.environment)

        var options = RunOptions()
        options.input = parsed["input"]
        options.dryRun = validateOnly || parsed.has("dry-run")
        options.output = parsed["output"]
        options.force = parsed.has("force")
        options.database = context.project.timeouts
        // Events as they happen, on stderr: JSON lines, or readable lines (the routine ones not under --quiet).
        let json = context.project.logFormat == .json
        let quietEvents = parsed.has("quiet")
        let showProgress = parsed.has("progress") || (!parsed.has("no-progress") && isatty(2) == 1 && !validateOnly)
        let progressLine = ProgressLine()
        options.events = { event in
            progressLine.clear()
            if json {
                printError(event.json)
            } else if event.level != .info || !quietEvents {
                printError(event.text)
            }
        }
        if options.output != nil && !options.dryRun {
            throw UsageError(message: "--output writes JSON lines in a dry run only; add --dry-run")
        }
        if let mode = parsed["mode"] {
            guard let value = LoadMode(rawValue: mode) else {
                throw UsageError(message: "--mode must be full or incremental, got \(mode)")
            }
            options.mode = value
        }
        if validateOnly && options.input == nil && config.input == nil {
            print("\(pipelinePath): ok (no input to check)")
            return 0
        }
        if parsed["metrics-file"] != nil && options.dryRun {
            throw UsageError(message: "--metrics-file records database runs; a dry run writes no metrics")
        }
        // Metrics describe database runs; a dry run or a validation leaves the file as it is.
        let metricsTemplate = options.dryRun ? nil : parsed["metrics-file"] ?? context.project.metricsFile
        if let metricsTemplate {
            metricsFile = try MetricsFile(template: metricsTemplate, pipeline: config.name, source: config.source,
                                          connection: context.project.timeouts)
        }
        if !options.dryRun {
            options.conninfo = try context.conninfo(flag: parsed["database"])
            metricsFile?.conninfo = options.conninfo
        }

        let runner = PipelineRunner(config: config, options: options)
        let metrics = metricsFile
        let quiet = parsed.has("quiet")
        let stdoutTaken = options.output == "-"
        // log_format: json prints each summary as one JSON object (for log shippers), text as a human table.
        func render(_ summary: RunSummary) -> String {
            context.project.logFormat == .json ? summary.json : summary.text
        }
        let progress = showProgress ? progressLine : nil
        progress?.start(runner)
        defer { progress?.stop() }
        let summaries = try Signals.shared.whileRunning(stop: { runner.interrupt() }) {
            try runner.runAll { summary in
                progress?.clear()
                metrics?.add(summary)
                let failed = summary.status == .failed || summary.status == .interrupted
                if failed {
                    printError(render(summary))
                } else if !quiet {
                    if stdoutTaken { printError(render(summary)) } else { print(render(summary), terminator: "") }
                }
            }
        }
        try summaryFile?.write(summaries)
        if let failed = summaries.first(where: { $0.status == .failed || $0.status == .interrupted }) {
            return exitCode(for: failed.failure ?? .input, signal: Signals.shared.first)
        }
        if validateOnly && summaries.contains(where: { $0.rejected > 0 }) { return 1 }
        return 0
    }

    /// A path to a pipeline file, or a bare name looked up as `pipelines/NAME.yaml`.
    static func locatePipeline(_ name: String) throws -> String {
        let fm = FileManager.default
        if fm.fileExists(atPath: name) { return name }
        for candidate in ["pipelines/\(name).yaml", "pipelines/\(name).yml", "\(name).yaml"]
        where fm.fileExists(atPath: candidate) {
            return candidate
        }
        throw UsageError(message: "no pipeline \(name) (looked for \(name) and pipelines/\(name).yaml)")
    }
}
