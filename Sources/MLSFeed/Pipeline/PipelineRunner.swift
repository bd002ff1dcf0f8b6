import Dispatch
import Foundation
import Postgres

/// Runs a pipeline: fetch → parse → normalize → validate → dedupe → load as concurrent Dispatch stages joined by
/// bounded, ordered queues of batches.
///
/// Each input (file, URL, stdin) is one unit: its own run in the ledger and its own transaction, so a backfill
/// over many files that fails at file 7 keeps files 1–6, and a rerun skips them as unchanged. A bad record becomes
/// a reject and the run goes on; the first infrastructure error (or a cancellation) in any stage cancels every
/// stage and that input's run fails with the database at its last good state.
public final class PipelineRunner: @unchecked Sendable {
    package let config: PipelineConfig
    package let options: RunOptions
    private let lock = NSLock()
    private var control = RunControl()
    private var interrupted = false
    /// The key sweep's runner while one runs (`sweep`): a stop is passed on to it.
    private var sweeper: PipelineRunner?
    /// The running unit's counters, total input size and start, for `progress`.
    private var watched: (state: Totals, totalBytes: Int64?, started: Double)?

    /// How far the unit in hand has come (nil between units); safe from any thread.
    package var progress: RunProgress? {
        guard let (state, total, started) = lock.withLock({ watched }) else { return nil }
        let now = state.snapshot
        return RunProgress(bytes: now.bytes, totalBytes: total, records: now.read, rejected: now.rejected,
                           documents: state.documentCount, seconds: monotonicSeconds() - started)
    }

    public init(config: PipelineConfig, options: RunOptions) {
        self.config = config
        self.options = options
    }

    /// Stops the run as soon as possible (SIGINT, SIGTERM); the current input's run ends `interrupted`.
    public func interrupt() {
        lock.lock()
        interrupted = true
        let current = control
        let sweeping = sweeper
        lock.unlock()
        current.fail(RunInterrupted())
        sweeping?.interrupt()
    }

    /// The inputs this run will read, in order.
    package func inputs() throws -> [InputFile] {
        if !options.sweep { try config.check(mode: options.mode) }
        guard let spec = options.input ?? config.input else {
            throw FetchError("pipeline \(config.name) has no source.input; pass --input PATH")
        }
        return try InputLocator.resolve(spec, order: config.order)
    }

    /// The units the inputs form, in order: each input alone (`source.unit: file`), or all of them as one dump
    /// (`source.unit: all`: one run, one transaction, one reconciliation).
    package func units() throws -> [[InputFile]] {
        let inputs = try inputs()
        switch config.unit {
        case .file: return inputs.map { [$0] }
        case .all: return inputs.isEmpty ? [] : [inputs]
        }
    }

    /// Runs every unit in order, stopping after the first one that fails. Throws only for problems found before
    /// any unit started (no input, another run holding the lock).
    ///
    /// A replicated resource whose last key sweep is older than `replication.key_sweep.every` is swept after a
    /// run that succeeded (not one that failed or paused), as a run of its own (`sweep`).
    public func runAll(each: (RunSummary) -> Void = { _ in }) throws -> [RunSummary] {
        var summaries: [RunSummary] = []
        for unit in try units() {
            let summary = try run(unit)
            summaries.append(summary)
            each(summary)
            if summary.status == .failed || summary.status == .interrupted { break }
        }
        if summaries.last?.status == .succeeded, sweepDue() {
            let summary = try sweep()
            summaries.append(summary)
            each(summary)
        }
        return summaries
    }

    /// Runs a key sweep of the pipeline's replicated resource now (`mlsfeed sweep`): only the keys of the server's
    /// records are fetched, and the source's on-market listings the server no longer has are withdrawn under the
    /// full-dump rules (complete only when every page arrived and the count agrees, `withdraw_guard`, a refusal
    /// exits 3), recorded in the ledger with mode `sweep`. Throws a `ConfigError` when the pipeline has no key
    /// sweep.
    public func sweep() throws -> RunSummary {
        let sweepConfig = try config.keySweep(input: options.input)
        var sweepOptions = options
        sweepOptions.sweep = true
        sweepOptions.mode = .full
        sweepOptions.dryRun = false
        sweepOptions.output = nil
        let runner = PipelineRunner(config: sweepConfig, options: sweepOptions)
        let stop = lock.withLock {
            sweeper = runner
            return interrupted
        }
        defer { lock.withLock { sweeper = nil } }
        if stop { runner.interrupt() }
        return try runner.run()
    }

    /// Whether a run should sweep its resource's keys now: `key_sweep.every` set, a database run, and the last
    /// sweep older than that (or none). A database that cannot say is no reason to sweep (the next run asks again).
    private func sweepDue() -> Bool {
        guard let every = config.fetch.webAPI?.replication?.sweepEvery, !options.dryRun, !options.plan,
              !options.sweep, let input = options.input ?? config.input, InputLocator.isURL(input) else { return false }
        do {
            let connection = try Connection(options.conninfo, options: options.database)
            let since = try LoadSession.secondsSinceSweep(connection, pipeline: config.name, source: config.source,
                                                          resource: resource)
            return since.map { $0 >= Double(every) } ?? true
        } catch {
            return false
        }
    }

    /// Runs the pipeline's first (usually only) unit.
    public func run() throws -> RunSummary {
        guard let first = try units().first else { throw FetchError("no input") }
        return try run(first)
    }

    /// Runs one input as one unit.
    package func run(_ input: InputFile) throws -> RunSummary {
        try run([input])
    }

    /// Runs one unit: its inputs read in order as the parts of one dump, in one run and one transaction.
    package func run(_ unit: [InputFile]) throws -> RunSummary {
        let log = RunLog(pipeline: config.name, source: config.source, redactor: config.fetch.redactor,
                         sink: options.events)
        let summary = try execute(unit, log: log)
        for warning in summary.warnings { log.emit("warning", .warning, run: summary.runID, warning) }
        for stage in summary.stages {
            log.emit("stage.finished", run: summary.runID,
                     "stage \(stage.name): \(stage.itemsIn) in, \(stage.itemsOut) out, "
                        + String(format: "%.2f s busy", stage.seconds),
                     [("stage", stage.name), ("in", String(stage.itemsIn)), ("out", String(stage.itemsOut)),
                      ("seconds", String(format: "%.3f", stage.seconds))])
        }
        let failed = summary.status == .failed || summary.status == .interrupted
        log.emit("run.finished", failed ? .error : .info, run: summary.runID,
                 "\(summary.status.rawValue): read \(summary.read), rejected \(summary.rejected), inserted "
                    + "\(summary.load.inserted), updated \(summary.load.updated), withdrawn \(summary.load.withdrawn)"
                    + (summary.error.map { "; \($0)" } ?? ""),
                 [("status", summary.status.rawValue), ("read", String(summary.read)),
                  ("rejected", String(summary.rejected)), ("inserted", String(summary.load.inserted)),
                  ("updated", String(summary.load.updated)), ("unchanged", String(summary.load.unchanged)),
                  ("stale", String(summary.load.stale)), ("withdrawn", String(summary.load.withdrawn)),
                  ("seconds", String(format: "%.3f", summary.seconds))]
                    + (summary.failure.map { [("failure", $0.rawValue)] } ?? []))
        return summary
    }

    private func execute(_ unit: [InputFile], log: RunLog) throws -> RunSummary {
        let started = monotonicSeconds()
        let control = RunControl()
        lock.lock()
        self.control = control
        let stop = interrupted
        lock.unlock()
        if stop { control.fail(RunInterrupted()) }

        let mode = options.mode ?? config.mode
        var summary = RunSummary(pipeline: config.name, source: config.source,
                                 mode: options.sweep ? "sweep" : mode.rawValue, dryRun: options.dryRun)
        var fetchSettings = config.fetch
        // Servers send `@odata.count` only when asked; a full run compares it with what it read.
        if mode == .full { fetchSettings.webAPI?.query.count = true }
        let runID = Locked<Int64?>(nil)
        fetchSettings.log = { message in log.emit("http.retry", .warning, run: runID.value, message) }
        summary.inputs = unit
        var totals = RunTotals()
        totals.inputs = unit.map { InputIdentity(location: $0.location, bytes: $0.bytes) }

        let sink: RecordSink
        var database: DatabaseSink?
        var loadOptions = LoadOptions(
            source: config.source, pipeline: config.name, mode: mode, withdrawGuard: config.withdrawGuard,
            force: options.force, onIncomplete: config.onIncomplete, plan: options.plan,
            earlyMergeRows: config.mergeWhileParsing, spoolDirectory: fetchSettings.spoolDirectory,
            lockTimeout: config.lockTimeout)
        loadOptions.sweep = options.sweep
        loadOptions.entity = config.mapping.entity
        loadOptions.embedded = Set(config.mapping.embedded.map(\.entity))
        if options.dryRun {
            sink = try JSONLSink(path: options.output, options: loadOptions)
        } else {
            let db: DatabaseSink
            do {
                db = try DatabaseSink(conninfo: options.conninfo, options: loadOptions,
                    connection: options.database,
                    cancellation: control.cancellation, log: { message in
                        log.emit("lock.wait", .warning, run: runID.value, message)
                    }, stoppedBySignal: { control.error is RunInterrupted })
            } catch {
                // A stop while the session starts cancels its connect or statement: the stop is the reason.
                throw control.error as? RunInterrupted ?? error
            }
            if !options.plan {
                summary.runID = db.runID
                runID.update { $0 = db.runID }
            }
            database = db
            sink = db
        }
        log.emit("run.started", run: summary.runID,
                 "started: source \(config.source), mode \(mode.rawValue)\(options.dryRun ? ", dry run" : ""), "
                    + "\(Self.name(of: unit))",
                 [("mode", mode.rawValue), ("inputs", String(unit.count))])

        // Change detection: a unit identical to the inputs of the source's last successful run (in the same mode)
        // is not loaded again.
        let opened: OpenedUnit
        do {
            let previous = options.force ? nil : try database?.previousRun()
            opened = try open(unit, previous: previous.flatMap { $0.mode == mode ? $0 : nil }, database: database,
                              fetch: fetchSettings, cancellation: control.cancellation)
        } catch {
            summary.completeness = .unfinished
            totals.completeness = .unfinished
            return finish(summary, failure: error, sink: sink, totals: totals, control: control, started: started)
        }
        if case .unchanged(let identities, let matched) = opened {
            do {
                try database?.commitUnchanged(identities, matched: matched)
                summary.status = .unchanged
                summary.identities = identities
                summary.matchedRun = matched
            } catch {
                return finish(summary, failure: error, sink: sink, totals: totals, control: control, started: started)
            }
            summary.seconds = monotonicSeconds() - started
            return summary
        }

        // A database run fingerprints each listing record and recognises the unchanged copies of stored listings,
        // read on their own connection while the parse begins (see `launchStages`).
        let stored = BlockingFuture<StoredListings>()
        // A key sweep recognises nothing: its records are keys only.
        let recognizer = database == nil || options.sweep ? nil
            : RawRecognizer(mapping: config.mapping, zone: config.timeZone, stored: stored)

        let state = Totals()
        control.declare(stages: StageSettings.stageNames)
        let sizes = unit.compactMap(\.bytes)
        lock.withLock {
            watched = (state, sizes.count == unit.count ? sizes.reduce(0, +) : nil, monotonicSeconds())
        }
        defer { lock.withLock { watched = nil } }
        let fetched = Locked(FetchedUnit())
        // A stage waiting for the stored listings must not outlive a stopped run.
        control.onCancel { stored.fulfil(.unavailable) }
        // The read of the stored listings ends before the run does (a cancelled run cancels its statement), so no
        // thread of this run is still in libpq when the process exits.
        let storedRead = DispatchGroup()
        if let database, recognizer != nil {
            database.recognize(against: stored)
            // A failed read fails the run; the stages waiting for it go on with nothing recognised until cancelled.
            spawn("stored", group: storedRead, control: control, done: { stored.fulfil(.unavailable) }) {
                stored.fulfil(try database.storedListings())
            }
        }
        launchStages(opened, unit: unit, sink: sink, recognizer: recognizer, state: state, control: control,
                     fetched: fetched, fetch: fetchSettings, log: log, runID: summary.runID)
        storedRead.wait()

        summary.read = state.read
        summary.rejected = state.rejected
        summary.warnings = state.warnings + PathWarnings.lines(mapping: config.mapping, matches: state.pathMatches,
                                                               records: state.read)
        summary.issues = state.issues.lines
        summary.rejectReasons = state.rejectReasons.lines
        summary.sampleRejects = state.sampleRejects
        summary.removedCharacters = state.removedCharacters
        summary.stages = control.stageMetrics
        summary.duplicates = state.windowDuplicates
        let got = fetched.value
        if !got.identities.isEmpty { summary.identities = got.identities }
        summary.completeness = Completeness(parts: state.parts, stoppedAtPages: got.stoppedAtPages,
                                            pausedAt: got.paused?.budget)
        // A stage failed or the run was stopped: whatever the parts said, the input was not read to its end.
        if control.error != nil { summary.completeness.reasons.append(Completeness.unfinishedReason) }

        totals.read = state.read
        totals.rejected = state.rejected
        totals.droppedDuplicates = state.windowDuplicates
        totals.inputs = summary.identities.isEmpty ? totals.inputs : summary.identities
        totals.warnings = summary.warnings
        totals.sampleRejects = state.sampleRejects
        totals.removedCharacters = state.removedCharacters
        totals.completeness = summary.completeness
        totals.paused = got.paused
        if config.fetch.webAPI?.replication != nil, case .odata(let source) = opened {
            totals.replicationResource = resource
            // The last record of the last page read, its timestamp as the database keeps it; one that is no
            // timestamp leaves the position where it was (the next run reads again from there).
            let last = state.lastReplicated.flatMap { raw -> (timestamp: String, key: String)? in
                guard let timestamp = try? Coercion.timestamp(raw.timestamp.trimmingCharacters(in: .whitespaces),
                                                              zone: config.timeZone ?? .gmt) else { return nil }
                return (timestamp, raw.key)
            }
            totals.replicationPosition = ReplicationPosition.after(
                source.position, last: last, reachedEnd: got.stoppedAtPages == nil && got.paused == nil)
        }
        if options.sweep, case .odata = opened { totals.sweepResource = resource }
        for metric in summary.stages { totals.timings[metric.name] = metric.seconds }
        do {
            totals.headerAsOf = try headerAsOf(state.generated, unit: unit)
        } catch {
            return finish(summary, failure: error, sink: sink, totals: totals, control: control, started: started)
        }

        var failure = control.error
        if let parseError = failure as? InputError, let damage = unit.lazy.compactMap(Fetcher.gzipDamage).first {
            // The parser met the garbage a damaged gzip stream gave before zlib noticed: the file is the cause.
            failure = FetchError(damage.message + " (the parser had stopped at decompressed line "
                                 + "\(parseError.position.line))")
        }
        if failure == nil, state.read > 0, Double(state.rejected) / Double(state.read) > config.maxRejectRatio {
            failure = RejectRatioExceeded(input: Self.name(of: unit), rejected: state.rejected, read: state.read,
                                          limit: config.maxRejectRatio)
        }
        if let failure {
            return finish(summary, failure: failure, sink: sink, totals: totals, control: control, started: started)
        }
        do {
            summary.load = try sink.commit(totals)
        } catch {
            return finish(summary, failure: error, sink: sink, totals: totals, control: control, started: started)
        }
        if control.error is RunInterrupted {
            summary.warnings.append("a stop signal came once the commit had been sent: the run completed")
        }
        summary.warnings += summary.load.notes
        summary.duplicates += summary.load.duplicates
        if got.paused != nil { summary.status = .paused }
        summary.seconds = monotonicSeconds() - started
        return summary
    }

    private func finish(_ summary: RunSummary, failure: Error, sink: RecordSink, totals: RunTotals,
                        control: RunControl, started: Double) -> RunSummary {
        var summary = summary
        // A stopped run's statements fail as cancelled: the stop is the reason, not what it interrupted.
        let failure = control.error as? RunInterrupted ?? failure
        let kind = RunSummary.Failure(of: failure)
        summary.failure = kind
        summary.status = kind == .interrupted ? .interrupted : .failed
        summary.error = describe(failure)
        sink.fail(summary.error!, interrupted: kind == .interrupted, totals: totals)
        summary.seconds = monotonicSeconds() - started
        return summary
    }

    /// A unit as messages name it: its input, or its first input and how many more.
    static func name(of unit: [InputFile]) -> String {
        guard let first = unit.first else { return "(no input)" }
        return unit.count == 1 ? first.displayName : "\(first.displayName) and \(unit.count - 1) more"
    }

    /// The dump's as-of time from its parts' header times (the oldest, so no part claims more than it knows), in
    /// UTC canonical form; nil unless every part has one.
    private func headerAsOf(_ generated: [String?], unit: [InputFile]) throws -> String? {
        guard !generated.isEmpty, generated.allSatisfy({ $0 != nil }) else { return nil }
        let times = try generated.map { raw -> String in
            do {
                return try Coercion.timestamp(raw!.trimmingCharacters(in: .whitespaces), zone: config.timeZone ?? .gmt)
            } catch let failure as CoercionFailure {
                throw FetchError("\(Self.name(of: unit)): the dump's generated time \(quoted(raw!)) is "
                                 + "\(failure.rule)")
            }
        }
        return times.min { Value.timestamp($0, precedes: $1) }
    }

    // MARK: - Opening inputs

    /// A unit ready to stream (its first input open when that had to be decided before the stages start), or found
    /// unchanged since the source's last successful run.
    /// The Web API resource a replicated URL input reads (`Property`): the key of its high-water mark.
    var resource: String {
        let spec = options.input ?? config.input ?? ""
        return URL(string: spec)?.lastPathComponent ?? spec
    }

    /// Opens a unit, or finds it unchanged: the same inputs (location, size and sha256 of each file; a 304 to a
    /// conditional GET of a URL) as `previous`, the source's last successful run in this mode.
    private func open(_ unit: [InputFile], previous: PreviousRun?, database: DatabaseSink?, fetch: FetchSettings,
                      cancellation: Cancellation) throws -> OpenedUnit {
        if let input = unit.first, InputLocator.isURL(input.location) {
            precondition(unit.count == 1, "a URL input is a unit of its own")
            if let api = config.fetch.webAPI {
                // A RESO Web API resource: resumes from its position, counts requests against the budgets.
                var position: ReplicationPosition?
                if api.replication != nil, let database {
                    position = try database.replicationPosition(resource: resource)
                }
                let budget = try api.rateLimit.flatMap { limits in try database?.requestBudget(limits) }
                return .odata(try ODataSource(base: input.location, settings: fetch, position: position,
                                              budget: budget, cancellation: cancellation))
            }
            if config.fetch.paging != nil {
                return .paged(try Fetcher.pages(input, settings: fetch, cancellation: cancellation))
            }
            let key = try Fetcher.ledgerLocation(of: input, settings: fetch)
            var conditional: Conditional?
            if let previous, previous.inputs.count == 1, previous.inputs[0].location == key,
               previous.inputs[0].etag != nil || previous.inputs[0].lastModified != nil {
                conditional = Conditional(etag: previous.inputs[0].etag, lastModified: previous.inputs[0].lastModified)
            }
            switch try Fetcher.open(input, settings: fetch, conditional: conditional,
                                    cancellation: cancellation) {
            case .source(let source): return .single(source)
            case .notModified(let identity): return .unchanged([identity], matched: previous!.id)
            }
        }
        // Files of the same sizes as last time are hashed first: equal sha256 everywhere means nothing to do.
        if let previous, previous.inputs.count == unit.count,
           zip(unit, previous.inputs).allSatisfy({ input, before in
               input.location != "-" && Redactor.scrub(input.location) == before.location
                   && before.sha256 != nil && before.bytes == input.bytes
           }) {
            var identities: [InputIdentity] = []
            for (input, before) in zip(unit, previous.inputs) {
                let now = try Fetcher.identity(of: input)
                guard now.sha256 == before.sha256 else { return .files }
                identities.append(now)
            }
            return .unchanged(identities, matched: previous.id)
        }
        return .files
    }

    // MARK: - Stages

    /// Connects the six stages with bounded, ordered queues and waits for all of them: fetch → parse →
    /// normalize (workers) → validate (workers) → dedupe → load.
    private func launchStages(_ opened: OpenedUnit, unit: [InputFile], sink: RecordSink, recognizer: RawRecognizer?,
                              state: Totals, control: RunControl, fetched: Locked<FetchedUnit>, fetch: FetchSettings,
                              log: RunLog, runID: Int64?) {
        let chunks = BoundedQueue<Chunk>(capacity: config.stage("fetch").queueDepth)
        let raw = BoundedQueue<[RawRecord]>(capacity: config.stage("normalize").queueDepth)
        let validated = BoundedQueue<ValidatedBatch>(capacity: config.stage("dedupe").queueDepth,
                                                     producers: config.stage("validate").workers)
        let deduped = BoundedQueue<DedupedBatch>(capacity: config.stage("load").queueDepth)
        let feedback = PageFeedback()
        for cancel in [chunks.cancel, raw.cancel, validated.cancel, deduped.cancel, feedback.cancel] {
            control.onCancel(cancel)
        }
        let group = DispatchGroup()
        var multiValue: Set<String> = []
        if case .retsCompact(let rets) = config.parse.format { multiValue = rets.multiValueColumns }
        let normalizer = Normalizer(mapping: config.mapping, zone: config.timeZone, recognizer: recognizer,
                                    multiValue: multiValue, deletion: config.fetch.webAPI?.deletion)
        let validator = Validator(mapping: config.mapping)
        let documents = Locked<[Int: FetchedDocument]>([:])
        let fetchStage = UncheckedBox(FetchStage(opened: UncheckedBox(opened), unit: unit, settings: fetch,
                                                 documents: documents, fetched: fetched, state: state,
                                                 feedback: feedback, control: control, log: log, runID: runID))
        let replicated = config.fetch.webAPI?.replication.map { (field: $0.field, key: $0.key) }
        let parseStage = UncheckedBox(ParseStage(settings: config.parse, mapping: config.mapping,
                                                 recognizer: recognizer, documents: documents,
                                                 unitName: Self.name(of: unit), state: state, feedback: feedback,
                                                 cancellation: control.cancellation, replicated: replicated))
        let validateInOrder = config.stage("validate").workers == 1
        let load = UncheckedBox(LoadStage(sink: sink, batchSize: config.stage("load").batchSize))

        spawn(FetchStage.name, group: group, control: control, done: chunks.producerFinished) {
            var stage = fetchStage.value
            try stage.run(into: chunks)
        }
        spawn(ParseStage.name, group: group, control: control, done: raw.producerFinished) {
            var stage = parseStage.value
            try StageDriver.run(&stage, from: chunks, to: raw, numbering: .own, control: control)
        }
        let (normalizeWorkers, validateWorkers) = (config.stage("normalize").workers, config.stage("validate").workers)
        if normalizeWorkers == validateWorkers {
            // Each worker validates the batch it just normalized (`StageChain`).
            for _ in 0..<normalizeWorkers {
                spawn(NormalizeStage.name, group: group, control: control, done: validated.producerFinished) {
                    var stage = StageChain(first: NormalizeStage(normalizer: normalizer),
                                           second: ValidateStage(validator: validator,
                                                                 shared: Validator.Shared(inOrder: validateInOrder)))
                    try StageDriver.run(&stage, from: raw, to: validated, numbering: .keepInput, control: control)
                }
            }
        } else {
            let coerced = BoundedQueue<[CoercedRecord]>(capacity: config.stage("validate").queueDepth,
                                                        producers: normalizeWorkers)
            control.onCancel(coerced.cancel)
            for _ in 0..<normalizeWorkers {
                spawn(NormalizeStage.name, group: group, control: control, done: coerced.producerFinished) {
                    var stage = NormalizeStage(normalizer: normalizer)
                    try StageDriver.run(&stage, from: raw, to: coerced, numbering: .keepInput, control: control)
                }
            }
            for _ in 0..<validateWorkers {
                spawn(ValidateStage.name, group: group, control: control, done: validated.producerFinished) {
                    var stage = ValidateStage(validator: validator, shared: Validator.Shared(inOrder: validateInOrder))
                    try StageDriver.run(&stage, from: coerced, to: validated, numbering: .keepInput, control: control)
                }
            }
        }
        let (window, hold, primary) = (config.dedupeWindow, config.dedupeHold, config.mapping.entity)
        let (sampleLimit, dryRun) = (options.sampleRejects, options.dryRun)
        spawn(DedupeStage.name, group: group, control: control, done: deduped.producerFinished) {
            // Made here, on its own thread, so the window has one owner: a stage captured by this closure and
            // copied out would share the window's storage, and its first insert would copy it whole (10 MB).
            var stage = DedupeStage(deduper: Deduper(windowCapacity: window, hold: hold, primary: primary),
                                    state: state, sampleLimit: sampleLimit, dryRun: dryRun)
            try StageDriver.run(&stage, from: validated, to: deduped, numbering: .own, control: control)
        }
        spawn(LoadStage.name, group: group, control: control, done: {}) {
            var stage = load.value
            try StageDriver.run(&stage, from: deduped, to: nil, numbering: .own, control: control)
        }
        group.wait()
    }

    /// Runs a stage body on its own Dispatch queue; its first error fails the whole run.
    private func spawn(_ name: String, group: DispatchGroup?, control: RunControl,
                       done: @escaping @Sendable () -> Void, _ body: @escaping @Sendable () throws -> Void) {
        let queue = DispatchQueue(label: "mlsfeed.stage.\(name)")
        queue.async(group: group) {
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

    /// One compiler-style line (or a few, for database detail) for the summary and the ledger; never a password.
    private func describe(_ error: Error) -> String {
        let text: String
        switch error {
        case let error as PostgresError: text = "error: \(error.report)"
        case let error as LoadError: text = "error: \(error.description)"
        default:
            let described = "\(error)"
            text = described.hasPrefix("error: ") || described.contains(": error: ") ? described : "error: " + described
        }
        return Redactor.scrub(text)
    }
}

/// A value shared between stage threads behind a lock.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    func update(_ body: (inout Value) -> Void) {
        lock.withLock { body(&stored) }
    }
}

/// Hands a non-Sendable value to exactly one stage thread.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T

    init(_ value: T) { self.value = value }
}

/// The run was stopped by a signal.
struct RunInterrupted: Error, CustomStringConvertible {
    var description: String { "error: the run was interrupted; the database keeps its last good state" }
}

/// More records were rejected than the pipeline allows.
struct RejectRatioExceeded: Error, CustomStringConvertible {
    /// The unit's input(s), as messages name them.
    var input: String
    var rejected: Int
    var read: Int
    var limit: Double

    var description: String {
        let share = Double(rejected) / Double(read) * 100
        return "error: \(input): \(rejected) of \(read) records rejected (\(String(format: "%.1f", share))%), "
            + "more than max_reject_ratio \(String(format: "%g", limit * 100))%; nothing was loaded"
    }
}
