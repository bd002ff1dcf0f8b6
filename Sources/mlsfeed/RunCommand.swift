import Dispatch
import Foundation
import MLSFeed
import YAMLConfig

/// `mlsfeed run` and `mlsfeed validate`.
enum RunCommand {
    static func main(_ args: [String], validateOnly: Bool) throws -> Int32 {
        let parsed = try Arguments(args, command: validateOnly ? CommandHelp.validate : CommandHelp.run)
        let summaryFile = try parsed["summary-json"].map(SummaryFile.init)
        var metrics = Metrics()
        do {
            let code = try run(parsed, validateOnly: validateOnly, summaryFile: summaryFile, metrics: &metrics)
            metrics.finish(error: nil)
            return code
        } catch {
            metrics.finish(error: error)
            // A failure before or outside any run still leaves its summary, never a stale one.
            let code = Signals.shared.first.map(Signals.exitCode) ?? exitCode(for: error)
            let failure = RunSummary.Failure(of: error)
            let kind = code == 2 && failure != .configuration ? "usage" : Signals.shared.first != nil ? "interrupted"
                : failure.rawValue
            try? summaryFile?.write(failure: kind, exitCode: code, error: describe(error))
            throw error
        }
    }

    /// The metrics files of an invocation: one for one pipeline, written at its end whatever happened; with several
    /// pipelines, each written once its pipelines ended, and at the end those that still wait.
    struct Metrics {
        var files: [MetricsFile] = []
        var several = false

        /// Writes what is left to write: with `error` (the invocation failed before its runs), every file not
        /// written yet says so.
        func finish(error: (any Error)?) {
            for file in files where !several || file.pending || (error != nil && !file.written) {
                file.write(error: error, signal: Signals.shared.first)
            }
        }
    }

    private static func run(_ parsed: Arguments, validateOnly: Bool, summaryFile: SummaryFile?,
                            metrics: inout Metrics) throws -> Int32 {
        guard !parsed.positionals.isEmpty else { throw UsageError(message: "missing PIPELINE") }
        if parsed.positionals.count > 1 {
            guard !validateOnly else { throw UsageError(message: "expected one PIPELINE") }
            metrics.several = true
            return try runSeveral(parsed, summaryFile: summaryFile, metrics: &metrics)
        }
        _ = try jobCount(parsed)
        let context = try Context(configFlag: parsed["config"])
        let pipelinePath = try locatePipeline(parsed.positionals[0])
        let config = try PipelineConfig.load(path: pipelinePath, project: context.project,
                                             environment: context.environment)

        var options = try runOptions(parsed, validateOnly: validateOnly, context: context)
        options.input = parsed["input"]
        options.output = parsed["output"]
        // Events as they happen, on stderr: JSON lines, or readable lines (the routine ones not under --quiet).
        let showProgress = parsed.has("progress") || (!parsed.has("no-progress") && isatty(2) == 1 && !validateOnly)
        let progressLine = ProgressLine()
        options.events = eventPrinter(parsed, context: context, progress: progressLine)
        if options.output != nil && !options.dryRun {
            throw UsageError(message: "--output writes JSON lines in a dry run only; add --dry-run")
        }
        if validateOnly && options.input == nil && config.input == nil {
            print("\(pipelinePath): ok (no input to check)")
            return 0
        }
        // Metrics describe database runs; a dry run or a validation leaves the file as it is.
        if let metricsTemplate = try metricsTemplate(parsed, context: context, dryRun: options.dryRun) {
            metrics.files = [try MetricsFile(template: metricsTemplate, pipeline: config.name, source: config.source,
                                             connection: context.project.timeouts)]
        }
        let metricsFile = metrics.files.first
        if !options.dryRun {
            options.conninfo = try context.conninfo(flag: parsed["database"])
            metricsFile?.conninfo = options.conninfo
        }

        let runner = PipelineRunner(config: config, options: options)
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
                metricsFile?.add(summary)
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

    /// `mlsfeed run PIPELINE PIPELINE... [--jobs N]`: every pipeline file is read and checked first (a mistake in
    /// any is exit 2 before anything ran), then `PipelineJobs` runs them.
    private static func runSeveral(_ parsed: Arguments, summaryFile: SummaryFile?, metrics: inout Metrics) throws
        -> Int32 {
        let count = parsed.positionals.count
        // What names one pipeline's input or output has no meaning for several.
        for option in ["input", "output"] where parsed[option] != nil {
            let what = option == "input" ? "it overrides that pipeline's source.input"
                : "it writes that pipeline's JSON lines"
            throw UsageError(message: "--\(option) takes one PIPELINE (got \(count)): \(what)")
        }
        let jobs = try jobCount(parsed)
        let context = try Context(configFlag: parsed["config"])
        var entries: [PipelineJobs.Entry] = []
        for name in parsed.positionals {
            let file = try locatePipeline(name)
            let config = try PipelineConfig.load(path: file, project: context.project, environment: context.environment)
            if let twin = entries.first(where: { $0.config.name == config.name }) {
                let same = URL(fileURLWithPath: twin.file).standardizedFileURL == URL(fileURLWithPath: file)
                    .standardizedFileURL
                if same { throw UsageError(message: "\(file) is given twice") }
                throw UsageError(message: "\(twin.file) and \(file) are both named \(config.name): the ledger, the "
                    + "summaries and the metrics tell pipelines by name; give each its own name:")
            }
            entries.append(PipelineJobs.Entry(file: file, config: config))
        }

        var options = try runOptions(parsed, validateOnly: false, context: context)
        let showProgress = parsed.has("progress") || (!parsed.has("no-progress") && isatty(2) == 1)
        let progressLine = ProgressLine()
        let output = NSLock()
        let printEvent = eventPrinter(parsed, context: context, progress: progressLine)
        options.events = { event in output.withLock { printEvent(event) } }

        // One metrics file per path: `{pipeline}` gives each pipeline its own, a path without it holds them all.
        var fileOfPipeline: [Int: MetricsFile] = [:]
        if let template = try metricsTemplate(parsed, context: context, dryRun: options.dryRun) {
            var paths: [String] = []
            var pipelinesAt: [String: [(pipeline: String, source: String)]] = [:]
            for entry in entries {
                let path = MetricsFile.path(template: template, pipeline: entry.config.name)
                if pipelinesAt[path] == nil { paths.append(path) }
                pipelinesAt[path, default: []].append((entry.config.name, entry.config.source))
            }
            var byPath: [String: MetricsFile] = [:]
            for path in paths {
                let file = try MetricsFile(path: path, pipelines: pipelinesAt[path]!,
                                           connection: context.project.timeouts)
                byPath[path] = file
                metrics.files.append(file)
            }
            for (index, entry) in entries.enumerated() {
                fileOfPipeline[index] = byPath[MetricsFile.path(template: template, pipeline: entry.config.name)]
            }
        }
        if !options.dryRun {
            options.conninfo = try context.conninfo(flag: parsed["database"])
            for file in metrics.files { file.conninfo = options.conninfo }
        }
        MallocTuning.allowArenas(jobs: min(jobs, entries.count))

        let quiet = parsed.has("quiet")
        let json = context.project.logFormat == .json
        let progress = showProgress ? progressLine : nil
        let metricsOf = fileOfPipeline
        let runs = PipelineJobs(entries: entries, options: options, jobs: jobs) { index, summary in
            metricsOf[index]?.add(summary)
            let failed = summary.status == .failed || summary.status == .interrupted
            guard failed || !quiet else { return }
            output.withLock {
                progress?.clear()
                let text = json ? summary.json : summary.text
                if failed {
                    printError(text)
                } else {
                    print(text, terminator: "")
                    fflush(nil)
                }
            }
        } finished: { index in
            metricsOf[index]?.finished(signal: Signals.shared.first)
        }
        progress?.start { runs.progressText() }
        let total = Signals.shared.whileRunning(stop: { runs.stop() }) { runs.run() }
        progress?.stop()
        let code = total.exitCode
        output.withLock {
            let text = json ? total.json : total.text
            if code != 0 {
                printError(text)
            } else if !quiet {
                print(text, terminator: "")
                fflush(nil)
            }
        }
        try summaryFile?.write(total.outcomes.flatMap(\.summaries), array: true)
        return code
    }

    /// `--jobs N`: 1 to 64, default 1.
    private static func jobCount(_ parsed: Arguments) throws -> Int {
        guard let text = parsed["jobs"] else { return 1 }
        guard let jobs = Int(text), (1...64).contains(jobs) else {
            throw UsageError(message: "--jobs must be a whole number from 1 to 64, got \(text)")
        }
        return jobs
    }

    /// The options every pipeline of the invocation runs with: dry run, force, mode, the database's timeouts.
    private static func runOptions(_ parsed: Arguments, validateOnly: Bool, context: Context) throws -> RunOptions {
        var options = RunOptions()
        options.dryRun = validateOnly || parsed.has("dry-run")
        options.force = parsed.has("force")
        options.database = context.project.timeouts
        if let mode = parsed["mode"] {
            guard let value = LoadMode(rawValue: mode) else {
                throw UsageError(message: "--mode must be full or incremental, got \(mode)")
            }
            options.mode = value
        }
        return options
    }

    /// What prints the runs' events on stderr: JSON lines, or readable lines (the routine ones not under --quiet),
    /// clearing the progress line first.
    private static func eventPrinter(_ parsed: Arguments, context: Context, progress: ProgressLine)
        -> @Sendable (RunEvent) -> Void {
        let json = context.project.logFormat == .json
        let quietEvents = parsed.has("quiet")
        return { event in
            progress.clear()
            if json {
                printError(event.json)
            } else if event.level != .info || !quietEvents {
                printError(event.text)
            }
        }
    }

    /// The metrics file's path (`{pipeline}` not yet replaced): `--metrics-file`, else `metrics_file:`; none for a
    /// dry run, which refuses `--metrics-file`.
    private static func metricsTemplate(_ parsed: Arguments, context: Context, dryRun: Bool) throws -> String? {
        if parsed["metrics-file"] != nil && dryRun {
            throw UsageError(message: "--metrics-file records database runs; a dry run writes no metrics")
        }
        return dryRun ? nil : parsed["metrics-file"] ?? context.project.metricsFile
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
