/// The parse stage: the bytes of each document → raw records in batches of `parse.batch_size`, numbered in input
/// order; at each document's end its report (declared counts, warnings, paging links) goes to the run's counters
/// and, for paged inputs, back to the fetch stage.
struct ParseStage: Stage {
    static let name = "parse"

    let settings: ParseSettings
    let mapping: Mapping
    let recognizer: RawRecognizer?
    /// The documents the fetch stage opened, by number.
    let documents: Locked<[Int: FetchedDocument]>
    /// The unit's name, for a document the fetch stage did not describe.
    let unitName: String
    let state: Totals
    let feedback: PageFeedback
    let cancellation: Cancellation
    /// A replicated Web API resource's replication field and tie-break key (`WebAPISettings.Replication`): the
    /// values of each page's last record that has both go to `Totals.lastReplicated`.
    let replicated: (field: String, key: String)?

    private var reader: RecordReader?
    /// The replication field's and tie-break key's raw values of the document's last record that had both.
    private var lastReplicated: (timestamp: String, key: String)?
    private var ordinal = 0
    private var documentStart = 0
    private var pending: [RawRecord] = []

    init(settings: ParseSettings, mapping: Mapping, recognizer: RawRecognizer?,
         documents: Locked<[Int: FetchedDocument]>, unitName: String, state: Totals, feedback: PageFeedback,
         cancellation: Cancellation, replicated: (field: String, key: String)? = nil) {
        self.settings = settings
        self.mapping = mapping
        self.recognizer = recognizer
        self.documents = documents
        self.unitName = unitName
        self.state = state
        self.feedback = feedback
        self.cancellation = cancellation
        self.replicated = replicated
    }

    mutating func process(_ chunk: consuming Chunk) throws -> [[RawRecord]] {
        if reader == nil {
            let name = documents.value[chunk.document]?.name ?? unitName
            reader = makeRecordReader(settings: settings, source: name, mapping: mapping, recognizer: recognizer)
            documentStart = ordinal + pending.count
        }
        var out: [[RawRecord]] = []
        if let bytes = chunk.bytes {
            try reader!.feed(bytes[...])
        } else {
            try reader!.finish()
        }
        for moved in MovingIterator(reader!.takeRecords(split: false)) {
            var record = consume moved
            if let replicated, let timestamp = record.value(replicated.field), let key = record.value(replicated.key) {
                lastReplicated = (timestamp, key)
            }
            record.ordinal = ordinal
            ordinal += 1
            pending.append(consume record)
            if pending.count >= settings.batchSize { out.append(takePending()) }
        }
        if chunk.bytes == nil {
            let document = documents.value[chunk.document] ?? FetchedDocument(name: unitName)
            let report = reader!.report
            let count = ordinal - documentStart
            var warnings = report.warnings
            if let none = report.noRecords, !document.laterPage { warnings.append(none) }
            state.addWarnings(warnings.map { "\(document.name): \($0)" })
            state.addRemoved(report.sanitizedCharacters)
            state.addPathMatches(report.pathMatches)
            state.addPart(Completeness.Part(name: document.name, records: count, declaredCount: report.declaredCount,
                                            maxRows: report.maxRows, truncated: report.truncated,
                                            nextLink: !(report.nextLink ?? "").isEmpty,
                                            laterPage: document.laterPage),
                          generated: report.generated)
            if let last = lastReplicated { state.setLastReplicated(last) }
            lastReplicated = nil
            reader = nil
            if !pending.isEmpty { out.append(takePending()) }
            feedback.report(document: chunk.document, .init(hadRecords: count > 0, nextLink: report.nextLink))
        }
        return out
    }

    mutating func finish() throws -> [[RawRecord]] {
        pending.isEmpty ? [] : [takePending()]
    }

    mutating func didPush(_ sequence: Int) throws {
        #if MLSFEED_TEST_HOOKS
        if sequence == 0 { try TestPause.parse.reach(cancellation: cancellation) }
        #endif
    }

    /// The records waiting for a full batch, counted as read.
    private mutating func takePending() -> [RawRecord] {
        let batch = pending
        pending.removeAll(keepingCapacity: true)
        state.addRead(batch.count)
        return batch
    }
}

/// A piece of a document's bytes, as fetch hands it to parse.
struct Chunk: StageBatch, Sendable {
    /// The document the bytes belong to: 0 for a single input, the page number for paged HTTP.
    var document: Int
    /// nil marks the end of that document.
    var bytes: [UInt8]?

    var itemCount: Int { bytes?.count ?? 0 }
}
