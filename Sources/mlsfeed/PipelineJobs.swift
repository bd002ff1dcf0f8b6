import Dispatch
import Foundation
import MLSFeed

/// `mlsfeed run PIPELINE PIPELINE... --jobs N`: up to N pipelines at once, each on a Dispatch queue of its own with a
/// `PipelineRunner` of its own, taken from a `JobQueue` in the order given (two of one source one after the other).
/// Each pipeline runs as it would alone: its units in order, each its own run in the ledger; its summaries go to
/// `report` as they come, and its end to `finished`. A stop (a signal) interrupts every running pipeline and starts
/// no other. The runners share nothing but the database and the process's signal handling; each run's memory is
/// bounded as alone, so N jobs hold about N runs' worth.
final class PipelineJobs: @unchecked Sendable {
    /// A pipeline to run: the file it was read from and its configuration.
    struct Entry: Sendable {
        var file: String
        var config: PipelineConfig
    }

    private let entries: [Entry]
    private let options: RunOptions
    private let jobs: Int
    /// Told each unit's summary (and a failure outside any unit) of the pipeline at an index, on its job's thread.
    private let report: @Sendable (Int, RunSummary) -> Void
    /// Told that the pipeline at an index ended, on its job's thread.
    private let finished: @Sendable (Int) -> Void
    /// Guards everything below; jobs wait on it for a pipeline to end when none may start.
    private let condition = NSCondition()
    private var queue: JobQueue
    private var runners: [Int: PipelineRunner] = [:]
    private var outcomes: [Int: PipelineOutcome] = [:]

    init(entries: [Entry], options: RunOptions, jobs: Int, report: @escaping @Sendable (Int, RunSummary) -> Void,
         finished: @escaping @Sendable (Int) -> Void) {
        self.entries = entries
        self.options = options
        self.jobs = jobs
        self.report = report
        self.finished = finished
        queue = JobQueue(sources: entries.map(\.config.source))
    }

    /// Runs every pipeline, `jobs` at a time, and returns the total once the last job ended.
    func run() -> JobsTotal {
        let started = DispatchTime.now().uptimeNanoseconds
        let group = DispatchGroup()
        for job in 0..<min(jobs, entries.count) {
            DispatchQueue(label: "mlsfeed.job.\(job)").async(group: group) { self.work() }
        }
        group.wait()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        return condition.withLock {
            JobsTotal(outcomes: entries.indices.compactMap { outcomes[$0] },
                      notStarted: queue.notStarted.map { entries[$0].config.name },
                      signalCode: Signals.shared.first.map(Signals.exitCode), seconds: seconds)
        }
    }

    /// Interrupts every running pipeline (each run ends `interrupted`) and starts no other.
    func stop() {
        let running = condition.withLock {
            queue.stop()
            condition.broadcast()
            return Array(runners.values)
        }
        for runner in running { runner.interrupt() }
    }

    /// The progress line of the pipelines running now; nil when none is.
    func progressText() -> String? {
        let (running, done) = condition.withLock {
            (runners.sorted { $0.key < $1.key }.map { (entries[$0.key].config.name, $0.value) }, outcomes.count)
        }
        guard !running.isEmpty else { return nil }
        return ProgressLine.combined(done: done, total: entries.count,
                                     running: running.map { (name: $0.0, progress: $0.1.progress) })
    }

    /// One job: takes pipelines until none is left for it.
    private func work() {
        while let (index, runner) = next() {
            let outcome = runPipeline(index, runner)
            condition.withLock {
                outcomes[index] = outcome
                runners[index] = nil
                queue.finish(index)
                condition.broadcast()
            }
            finished(index)
        }
    }

    /// The next pipeline for a job and its runner, waiting while every waiting one's source is running; nil when
    /// nothing waits or a stop came.
    private func next() -> (Int, PipelineRunner)? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let index = queue.take() {
                let runner = PipelineRunner(config: entries[index].config, options: options)
                runners[index] = runner
                return (index, runner)
            }
            if queue.stopped || queue.waiting.isEmpty { return nil }
            // Bounded by the running pipelines' runs: each ends, and wakes this.
            condition.wait()
        }
    }

    /// Runs one pipeline's units as `mlsfeed run` of it alone would: the exit code is its first failed unit's, or
    /// that of the error that stopped it outside any unit (then told as a summary of its own).
    private func runPipeline(_ index: Int, _ runner: PipelineRunner) -> PipelineOutcome {
        let config = entries[index].config
        var summaries: [RunSummary] = []
        var code: Int32 = 0
        do {
            _ = try runner.runAll { summary in
                summaries.append(summary)
                report(index, summary)
            }
            if let failed = summaries.first(where: { $0.status == .failed || $0.status == .interrupted }) {
                code = exitCode(for: failed.failure ?? .input, signal: Signals.shared.first)
            }
        } catch {
            let signal = Signals.shared.first
            code = signal.map(Signals.exitCode) ?? exitCode(for: error)
            let failure: RunSummary.Failure = signal != nil ? .interrupted
                : code == 2 ? .configuration : RunSummary.Failure(of: error)
            let summary = RunSummary.outside(pipeline: config.name, source: config.source,
                                             mode: (options.mode ?? config.mode).rawValue, dryRun: options.dryRun,
                                             failure: failure, error: describe(error))
            summaries.append(summary)
            report(index, summary)
        }
        return PipelineOutcome(pipeline: config.name, source: config.source, summaries: summaries, exitCode: code)
    }
}
