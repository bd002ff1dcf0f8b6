import Foundation
import MLSFeed
import YAMLConfig

/// `mlsfeed sweep PIPELINE`: a key sweep of a replicated Web API resource now (`PipelineRunner.sweep`).
enum SweepCommand {
    static func main(_ args: [String]) throws -> Int32 {
        let parsed = try Arguments(args, command: CommandHelp.sweep)
        guard parsed.positionals.count == 1 else {
            throw UsageError(message: parsed.positionals.isEmpty ? "missing PIPELINE" : "expected one PIPELINE")
        }
        let summaryFile = try parsed["summary-json"].map(SummaryFile.init)
        do {
            return try sweep(parsed, summaryFile: summaryFile)
        } catch {
            let code = Signals.shared.first.map(Signals.exitCode) ?? exitCode(for: error)
            let kind = code == 2 ? "usage" : Signals.shared.first != nil ? "interrupted"
                : RunSummary.Failure(of: error).rawValue
            try? summaryFile?.write(failure: kind, exitCode: code, error: describe(error))
            throw error
        }
    }

    private static func sweep(_ parsed: Arguments, summaryFile: SummaryFile?) throws -> Int32 {
        let context = try Context(configFlag: parsed["config"])
        let config = try PipelineConfig.load(path: try RunCommand.locatePipeline(parsed.positionals[0]),
                                             project: context.project, environment: context.environment)
        var options = RunOptions()
        options.force = parsed.has("force")
        options.database = context.project.timeouts
        let json = context.project.logFormat == .json
        let quiet = parsed.has("quiet")
        options.events = { event in
            if json {
                printError(event.json)
            } else if event.level != .info || !quiet {
                printError(event.text)
            }
        }
        options.conninfo = try context.conninfo(flag: parsed["database"])
        let runner = PipelineRunner(config: config, options: options)
        let summary = try Signals.shared.whileRunning(stop: { runner.interrupt() }) { try runner.sweep() }
        let text = json ? summary.json : summary.text
        let failed = summary.status == .failed || summary.status == .interrupted
        if failed {
            printError(text)
        } else if !quiet {
            print(text, terminator: "")
        }
        try summaryFile?.write([summary])
        return failed ? exitCode(for: summary.failure ?? .input, signal: Signals.shared.first) : 0
    }
}
