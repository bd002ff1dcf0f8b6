import Postgres

/// `mlsfeed rejects replay`: feeds the stored raw records of one run's rejects through a pipeline's current mapping
/// (normalize, validate, dedupe, load) as a new incremental run, so a fixed mapping does not need the whole dump
/// again.
///
/// The new run's ledger row names its input `rejects of run N`; the replayed rejects stay and are marked
/// `replayed_by` the new run in its transaction; a record still failing is rejected again in the new run (with
/// its original position and ordinal). A run whose rejects were all replayed is refused, naming the runs that did.
/// Flat records are replayed as their stored fields; JSON records (`format: reso-json`) through the pipeline's
/// JSON reader; nested XML records (`format: xml`) cannot be replayed.
package struct RejectReplay {
    package struct Result: Sendable {
        /// The replay run's id.
        package var runID: Int64
        /// Rejects fed through the mapping.
        package var replayed = 0
        /// Of those, rejected again.
        package var rejectedAgain = 0
        package var load: LoadResult
    }

    /// Rejects fed per batch.
    static let batchSize = 1000

    let config: PipelineConfig
    let conninfo: String
    let connection: ConnectionOptions

    package init(config: PipelineConfig, conninfo: String, connection: ConnectionOptions) {
        self.config = config
        self.conninfo = conninfo
        self.connection = connection
    }

    /// The ledger row's input for a replay of run `run`.
    package static func inputName(run: Int64) -> String { "rejects of run \(run)" }

    /// Replays the rejects of run `run` not replayed yet; throws a refusal (`LoadError`) when there are none left,
    /// or when they are not the pipeline's (another source or entity).
    package func replay(run: Int64) throws -> Result {
        let reading = try Connection(conninfo, options: connection)
        try reading.execute("SET TimeZone = 'UTC'")
        try Migrations.apply(reading)
        let ledger = Ledger(reading)
        let state = try ledger.replayState(run: run)
        try check(state, run: run)
        if case .xml = config.parse.format {
            throw LoadError("pipeline \(config.name) reads nested XML records, which a replay cannot feed again; "
                + "rerun its input instead", kind: .refusal)
        }
        var options = LoadOptions(source: config.source, pipeline: config.name, mode: .incremental,
                                  earlyMergeRows: config.mergeWhileParsing, lockTimeout: config.lockTimeout)
        options.entity = config.mapping.entity
        options.embedded = Set(config.mapping.embedded.map(\.entity))
        let session = try LoadSession(conninfo: conninfo, options: options, connection: connection)
        var totals = RunTotals(inputs: [InputIdentity(location: Self.inputName(run: run))])
        do {
            var feed = Feed(config: config, run: run)
            var batch: [StoredReject] = []
            try ledger.rejects(run: run) { reject in
                guard reject.replayedBy == nil else { return }
                batch.append(reject)
                if batch.count >= Self.batchSize {
                    try feed.write(batch, to: session)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            try feed.write(batch, to: session)
            try feed.finish(session)
            let marked = try session.markReplayed(run: run)
            guard marked == feed.read else {
                throw LoadError("the rejects of run \(run) changed during the replay (another replay?): fed "
                    + "\(feed.read), marked \(marked)", kind: .refusal)
            }
            totals.read = feed.read
            totals.rejected = feed.rejected
            totals.sampleRejects = feed.sample
            let load = try session.commit(totals)
            return Result(runID: session.runID, replayed: feed.read, rejectedAgain: feed.rejected, load: load)
        } catch {
            session.fail(String(describing: error), totals: totals)
            throw error
        }
    }

    /// Refuses a replay with nothing to feed, or of another pipeline's rejects.
    private func check(_ state: RejectReplayState, run: Int64) throws {
        if state.total == 0 {
            throw LoadError("run \(run) has no stored rejects (a failed run keeps none; pruned ones are gone)",
                            kind: .refusal)
        }
        if let other = state.sources.first(where: { $0 != config.source }) {
            throw LoadError("the rejects of run \(run) are of source \(other); pipeline \(config.name) loads source "
                + "\(config.source)", kind: .refusal)
        }
        if let other = state.entities.first(where: { $0 != config.mapping.entity.rawValue }) {
            throw LoadError("the rejects of run \(run) are \(other) records; pipeline \(config.name) maps "
                + "\(config.mapping.entity.rawValue) records", kind: .refusal)
        }
        if state.pending == 0 {
            let runs = state.replayedBy.map { "run \($0)" }.joined(separator: ", ")
            throw LoadError("the rejects of run \(run) were already replayed by \(runs); nothing left to replay "
                + "(records that failed again are rejects of the replay run: `mlsfeed rejects replay --run "
                + "\(state.replayedBy.last!)`)", kind: .refusal)
        }
    }

    /// The stages after the parse, fed stored rejects batch by batch.
    private struct Feed {
        let config: PipelineConfig
        let run: Int64
        let normalizer: Normalizer
        let validator: Validator
        var deduper: Deduper
        var childMemo = Normalizer.ChildMemo()
        var shared = Validator.Shared(inOrder: true)
        var read = 0
        var rejected = 0
        /// The first rejects again, compiler-style.
        var sample: [String] = []

        init(config: PipelineConfig, run: Int64) {
            self.config = config
            self.run = run
            var multiValue: Set<String> = []
            if case .retsCompact(let rets) = config.parse.format { multiValue = rets.multiValueColumns }
            normalizer = Normalizer(mapping: config.mapping, zone: config.timeZone, multiValue: multiValue,
                                    deletion: config.fetch.webAPI?.deletion)
            validator = Validator(mapping: config.mapping)
            deduper = Deduper(windowCapacity: config.dedupeWindow, hold: config.dedupeHold,
                              primary: config.mapping.entity)
        }

        mutating func write(_ rejects: [StoredReject], to session: LoadSession) throws {
            guard !rejects.isEmpty else { return }
            read += rejects.count
            let raw = try records(of: rejects)
            let validated = validator.process(normalizer.process(raw, children: &childMemo), shared: &shared)
            try push(deduper.process(records: validated.records, rejects: validated.rejects), to: session)
        }

        mutating func finish(_ session: LoadSession) throws {
            try push(deduper.finish(), to: session)
        }

        private mutating func push(_ items: [Deduper.Item], to session: LoadSession) throws {
            var records: [NormalizedRecord] = []
            var rejects: [Reject] = []
            for item in items {
                switch item {
                case .record(let record): records.append(record)
                case .reject(let reject): rejects.append(reject)
                }
            }
            rejected += rejects.count
            for reject in rejects.prefix(max(0, 10 - sample.count)) { sample.append(reject.diagnostic) }
            if !records.isEmpty { try session.write(records) }
            if !rejects.isEmpty { try session.write(rejects: rejects) }
        }

        /// The raw records the rejects stored, at their original positions and ordinals. A whole-record defect
        /// (`record: ...`) stays one: the record was never read whole.
        private func records(of rejects: [StoredReject]) throws -> [RawRecord] {
            var out: [RawRecord] = []
            out.reserveCapacity(rejects.count)
            var json: [(index: Int, text: String)] = []
            for reject in rejects {
                let defect = reject.reasons.first { $0.hasPrefix("record: ") }.map { String($0.dropFirst(8)) }
                var record = RawRecord(fields: [], position: reject.position, ordinal: Int(reject.ordinal),
                                       defect: defect)
                switch reject.raw {
                case .fields(let fields): record.fields = fields
                case .object(let text): if defect == nil { json.append((out.count, text)) }
                }
                out.append(record)
            }
            guard !json.isEmpty else { return out }
            // JSON records go through the pipeline's own reader, one per line (JSON Lines).
            let reader = makeRecordReader(settings: config.parse, source: RejectReplay.inputName(run: run),
                                          mapping: config.mapping)
            var text = ""
            for item in json { text += item.text + "\n" }
            try reader.feed(Array(text.utf8)[...])
            try reader.finish()
            let parsed = reader.takeRecords()
            guard parsed.count == json.count else {
                throw LoadError("the stored JSON of \(json.count) rejects of run \(run) read as \(parsed.count) "
                    + "records")
            }
            for (item, var record) in zip(json, parsed) {
                record.position = out[item.index].position
                record.ordinal = out[item.index].ordinal
                out[item.index] = record
            }
            return out
        }
    }
}
