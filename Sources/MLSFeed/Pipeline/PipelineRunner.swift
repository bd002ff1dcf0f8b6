import Dispatch
import Foundation

/// Runs a pipeline: fetch → parse → normalize → validate → dedupe → load as concurrent Dispatch stages joined by
/// bounded, ordered queues of batches.
///
/// A bad record becomes a reject and the run goes on; the first infrastructure error (or a cancellation) in any
/// stage cancels every stage and the run fails with the database at its last good state.
public final class PipelineRunner: @unchecked Sendable {
    public let config: PipelineConfig
    public let options: RunOptions
    private let control = RunControl()

    public init(config: PipelineConfig, options: RunOptions) {
        self.config = config
        self.options = options
    }

    /// Stops the run as soon as possible (SIGINT, SIGTERM); the run ends `interrupted`.
    public func interrupt() {
        control.fail(RunInterrupted())
    }

    /// Runs to the end. Returns the summary; throws only for problems found before any stage started
    /// (no input, configuration, another run holding the lock).
    public func run() throws -> RunSummary {
        let started = monotonicSeconds()
        let mode = options.mode ?? config.mode
        var summary = RunSummary(pipeline: config.name, source: config.source, mode: mode.rawValue,
                                 dryRun: options.dryRun)
        guard let spec = options.input ?? config.input else {
            throw FetchError("pipeline \(config.name) has no source.input; pass --input PATH")
        }
        let inputs = try InputLocator.resolve(spec)
        summary.inputs = inputs

        let sink: RecordSink
        if options.dryRun {
            sink = try JSONLSink(path: options.output)
        } else {
            let database = try makeDatabaseSink(conninfo: options.conninfo, options: LoadOptions(
                source: config.source, pipeline: config.name, mode: mode, withdrawGuard: config.withdrawGuard,
                force: options.force))
            summary.runID = database.runID
            sink = database
        }

        let state = Totals()
        control.declare(stages: StageSettings.stageNames)
        let progress = options.progress ? ProgressReporter(state: state, inputs: inputs) : nil
        progress?.start()
        launchStages(inputs: inputs, sink: sink, state: state)
        progress?.stop()

        summary.read = state.read
        summary.rejected = state.rejected
        summary.warnings = state.warnings
        summary.issues = state.issues.lines
        summary.rejectReasons = state.rejectReasons.lines
        summary.sampleRejects = state.sampleRejects
        summary.removedCharacters = state.removedCharacters
        summary.stages = control.stageMetrics

        var failure = control.error
        if failure == nil, state.read > 0, Double(state.rejected) / Double(state.read) > config.maxRejectRatio {
            failure = RejectRatioExceeded(rejected: state.rejected, read: state.read, limit: config.maxRejectRatio)
        }
        if let failure {
            summary.status = failure is RunInterrupted ? .interrupted : .failed
            summary.error = describe(failure)
            sink.fail(summary.error!, interrupted: failure is RunInterrupted)
        } else {
            var totals = RunTotals()
            totals.read = state.read
            totals.rejected = state.rejected
            totals.inputs = inputs
            totals.warnings = state.warnings
            for metric in summary.stages { totals.timings[metric.name] = metric.seconds }
            do {
                summary.load = try sink.commit(totals)
            } catch {
                summary.status = .failed
                summary.error = describe(error)
                sink.fail(summary.error!, interrupted: false)
            }
        }
        summary.duplicates = state.windowDuplicates + summary.load.duplicates
        summary.seconds = monotonicSeconds() - started
        return summary
    }

    // MARK: - Stages

    private struct Chunk: Sendable {
        var input: Int
        /// nil marks the end of that input.
        var bytes: [UInt8]?
    }

    private struct DedupedBatch: Sendable {
        var records: [NormalizedRecord]
        var rejects: [Reject]
    }

    private func launchStages(inputs: [InputFile], sink: RecordSink, state: Totals) {
        let chunks = BoundedQueue<Chunk>(capacity: config.stage("fetch").queueDepth)
        let raw = BoundedQueue<[RawRecord]>(capacity: config.stage("normalize").queueDepth)
        let coerced = BoundedQueue<[CoercedRecord]>(capacity: config.stage("validate").queueDepth,
                                                    producers: config.stage("normalize").workers)
        let validated = BoundedQueue<ValidatedBatch>(capacity: config.stage("dedupe").queueDepth,
                                                     producers: config.stage("validate").workers)
        let deduped = BoundedQueue<DedupedBatch>(capacity: config.stage("load").queueDepth)
        for queue in [chunks.cancel, raw.cancel, coerced.cancel, validated.cancel, deduped.cancel] {
            control.onCancel(queue)
        }
        let group = DispatchGroup()
        let normalizer = Normalizer(mapping: config.mapping, zone: config.timeZone)
        let validator = Validator(mapping: config.mapping)

        spawn("fetch", group: group, done: chunks.producerFinished) { [self] in
            var sequence = 0
            for (index, input) in inputs.enumerated() {
                let reader = try ChunkReader(input)
                while true {
                    let t0 = monotonicSeconds()
                    let bytes = try reader.next()
                    control.record(stage: "fetch", itemsIn: bytes?.count ?? 0, itemsOut: bytes?.count ?? 0,
                                   seconds: monotonicSeconds() - t0)
                    try chunks.push(Chunk(input: index, bytes: bytes), sequence: sequence)
                    sequence += 1
                    state.addBytes(bytes?.count ?? 0)
                    if bytes == nil { break }
                }
            }
        }
        spawn("parse", group: group, done: raw.producerFinished) { [self] in
            var reader: RecordReader?
            var sequence = 0
            var ordinal = 0
            var pending: [RawRecord] = []
            let batchSize = config.parse.batchSize
            func emit(_ records: [RawRecord]) throws {
                for var record in records {
                    record.ordinal = ordinal
                    ordinal += 1
                    pending.append(record)
                    if pending.count >= batchSize { try flush() }
                }
            }
            func flush() throws {
                guard !pending.isEmpty else { return }
                state.addRead(pending.count)
                try raw.push(pending, sequence: sequence)
                sequence += 1
                pending.removeAll(keepingCapacity: true)
            }
            while let (_, chunk) = try chunks.pop() {
                let t0 = monotonicSeconds()
                if reader == nil {
                    reader = makeRecordReader(settings: config.parse, source: inputs[chunk.input].displayName)
                }
                let before = ordinal + pending.count
                if let bytes = chunk.bytes {
                    try reader!.feed(bytes[...])
                    try emit(reader!.takeRecords())
                } else {
                    try reader!.finish()
                    try emit(reader!.takeRecords())
                    state.addWarnings(reader!.report.warnings.map { "\(inputs[chunk.input].displayName): \($0)" })
                    state.addRemoved(reader!.report.sanitizedCharacters)
                    reader = nil
                    try flush()
                }
                control.record(stage: "parse", itemsIn: chunk.bytes?.count ?? 0,
                               itemsOut: ordinal + pending.count - before, seconds: monotonicSeconds() - t0)
            }
            try flush()
        }
        for _ in 0..<config.stage("normalize").workers {
            spawn("normalize", group: group, done: coerced.producerFinished) { [self] in
                while let (sequence, batch) = try raw.pop() {
                    let t0 = monotonicSeconds()
                    let out = normalizer.process(batch)
                    control.record(stage: "normalize", itemsIn: batch.count, itemsOut: out.count,
                                   seconds: monotonicSeconds() - t0)
                    try coerced.push(out, sequence: sequence)
                }
            }
        }
        for _ in 0..<config.stage("validate").workers {
            spawn("validate", group: group, done: validated.producerFinished) { [self] in
                while let (sequence, batch) = try coerced.pop() {
                    let t0 = monotonicSeconds()
                    let out = validator.process(batch)
                    control.record(stage: "validate", itemsIn: batch.count, itemsOut: out.records.count,
                                   seconds: monotonicSeconds() - t0)
                    try validated.push(out, sequence: sequence)
                }
            }
        }
        spawn("dedupe", group: group, done: deduped.producerFinished) { [self] in
            var deduper = Deduper(windowCapacity: config.dedupeWindow, hold: config.dedupeHold)
            let dryRun = options.dryRun
            let sampleLimit = options.sampleRejects
            var last = -1
            func push(_ items: [Deduper.Item], sequence: Int, itemsIn: Int, started: Double) throws {
                var batch = DedupedBatch(records: [], rejects: [])
                for item in items {
                    switch item {
                    case .record(let record): batch.records.append(record)
                    case .reject(let reject): batch.rejects.append(reject)
                    }
                }
                // A real run's loader counts the superseded copies it discards; a dry run has no loader.
                state.setWindowDuplicates(deduper.droppedListings + (dryRun ? deduper.supersededListings : 0))
                control.record(stage: "dedupe", itemsIn: itemsIn, itemsOut: batch.records.count,
                               seconds: monotonicSeconds() - started)
                try deduped.push(batch, sequence: sequence)
            }
            while let (sequence, batch) = try validated.pop() {
                let t0 = monotonicSeconds()
                state.addValidated(batch, sampleLimit: sampleLimit)
                let items = deduper.process(records: batch.records, rejects: batch.rejects)
                try push(items, sequence: sequence, itemsIn: batch.records.count, started: t0)
                last = sequence
            }
            try push(deduper.finish(), sequence: last + 1, itemsIn: 0, started: monotonicSeconds())
        }
        spawn("load", group: group, done: {}) { [self] in
            let batchSize = config.stage("load").batchSize
            var pending: [NormalizedRecord] = []
            var pendingRejects: [Reject] = []
            pending.reserveCapacity(batchSize)
            func flush() throws {
                guard !pending.isEmpty || !pendingRejects.isEmpty else { return }
                let t0 = monotonicSeconds()
                try sink.write(pending, rejects: pendingRejects)
                control.record(stage: "load", itemsIn: pending.count + pendingRejects.count, itemsOut: pending.count,
                               seconds: monotonicSeconds() - t0)
                pending.removeAll(keepingCapacity: true)
                pendingRejects.removeAll(keepingCapacity: true)
            }
            while let (_, batch) = try deduped.pop() {
                pending += batch.records
                pendingRejects += batch.rejects
                if pending.count + pendingRejects.count >= batchSize { try flush() }
            }
            try flush()
        }
        group.wait()
    }

    /// Runs a stage body on its own Dispatch queue; its first error fails the whole run.
    private func spawn(_ name: String, group: DispatchGroup, done: @escaping @Sendable () -> Void,
                       _ body: @escaping @Sendable () throws -> Void) {
        let queue = DispatchQueue(label: "mlsfeed.stage.\(name)")
        queue.async(group: group) { [control] in
            do {
                try body()
            } catch is CancellationError {
                // Another stage failed first; its error is the run's.
            } catch {
                control.fail(error)
            }
            done()
        }
    }

    private func describe(_ error: Error) -> String {
        if let error = error as? CustomStringConvertible { return error.description }
        return "error: \(error)"
    }
}

/// The run was stopped by a signal.
struct RunInterrupted: Error, CustomStringConvertible {
    var description: String { "error: the run was interrupted; the database keeps its last good state" }
}

/// More records were rejected than the pipeline allows.
struct RejectRatioExceeded: Error, CustomStringConvertible {
    var rejected: Int
    var read: Int
    var limit: Double

    var description: String {
        let share = Double(rejected) / Double(read) * 100
        return "error: \(rejected) of \(read) records rejected (\(String(format: "%.1f", share))%), more than "
            + "max_reject_ratio \(String(format: "%g", limit * 100))%; nothing was loaded"
    }
}
