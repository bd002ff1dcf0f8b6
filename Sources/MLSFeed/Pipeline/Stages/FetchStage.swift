/// The fetch stage, the head of the line: the bytes of every document of the unit (local files and stdin in turn,
/// one http(s) body, or page after page of a paged or RESO Web API source) in chunks, numbered in order. It takes
/// no batches; for paged sources it waits for the parse stage's verdict on each page before asking for the next.
struct FetchStage {
    static let name = "fetch"

    let opened: UncheckedBox<OpenedUnit>
    let unit: [InputFile]
    let settings: FetchSettings
    let documents: Locked<[Int: FetchedDocument]>
    let fetched: Locked<FetchedUnit>
    let state: Totals
    let feedback: PageFeedback
    let control: RunControl
    let log: RunLog
    let runID: Int64?

    private var sequence = 0
    private var document = 0

    init(opened: UncheckedBox<OpenedUnit>, unit: [InputFile], settings: FetchSettings,
         documents: Locked<[Int: FetchedDocument]>, fetched: Locked<FetchedUnit>, state: Totals,
         feedback: PageFeedback, control: RunControl, log: RunLog, runID: Int64?) {
        self.opened = opened
        self.unit = unit
        self.settings = settings
        self.documents = documents
        self.fetched = fetched
        self.state = state
        self.feedback = feedback
        self.control = control
        self.log = log
        self.runID = runID
    }

    /// Reads every document of the unit into `chunks`.
    mutating func run(into chunks: BoundedQueue<Chunk>) throws {
        switch opened.value {
        case .single(let source):
            try pump(source, as: FetchedDocument(name: source.location), into: chunks)
            fetched.update { $0.identities = [source.identity] }
        case .paged(let pages):
            var page = 0
            while let source = try pages.nextPage() {
                let current = document
                try pump(source, as: FetchedDocument(name: "\(pages.location) [page \(page + 1)]", laterPage: page > 0,
                                                     page: page + 1), into: chunks)
                pages.pageHadRecords(try feedback.wait(document: current).hadRecords)
                page += 1
            }
            if pages.reachedMaxPages { stoppedAtMaxPages(pages.location, count: pages.pagesFetched) }
            fetched.update { $0.identities = [pages.identity] }
        case .odata(let pages):
            var page = 0
            while let source = try pages.nextPage() {
                let current = document
                try pump(source, as: FetchedDocument(name: "\(pages.location) [page \(page + 1)]", laterPage: page > 0,
                                                     page: page + 1), into: chunks)
                pages.pageRead(nextLink: try feedback.wait(document: current).nextLink)
                page += 1
            }
            if pages.stoppedAtMaxPages { stoppedAtMaxPages(pages.location, count: pages.pagesFetched) }
            if let pause = pages.paused {
                state.addWarnings([pages.redactor.redact("\(pages.location): \(pause)")])
                fetched.update { $0.paused = pause }
            }
            fetched.update { $0.identities = [pages.identity] }
        case .files:
            for input in unit {
                try control.check()
                guard case .source(let source) = try Fetcher.open(input, settings: settings, conditional: nil,
                                                                  cancellation: control.cancellation) else {
                    throw FetchError("\(input.displayName): unexpected answer opening a local input")
                }
                try pump(source, as: FetchedDocument(name: input.location == "-" ? "-" : source.location),
                         into: chunks)
                fetched.update { $0.identities.append(source.identity) }
            }
        case .unchanged:
            break
        }
    }

    /// Hands one document's bytes on, then its end.
    private mutating func pump(_ source: any ChunkSource, as info: FetchedDocument,
                               into chunks: BoundedQueue<Chunk>) throws {
        documents.update { $0[document] = info }
        log.emit(info.page == nil ? "input.opened" : "page.fetched", run: runID,
                 info.page.map { "page \($0) of \(info.name)" } ?? "reading \(info.name)",
                 [("location", info.name)] + (info.page.map { [("page", String($0))] } ?? []))
        #if MLSFEED_TEST_HOOKS
        if document == 0 { try TestPause.fetch.reach(cancellation: control.cancellation) }
        #endif
        while true {
            let started = monotonicSeconds()
            let bytes = try source.next()
            control.record(stage: Self.name, itemsIn: bytes?.count ?? 0, itemsOut: bytes?.count ?? 0,
                           seconds: monotonicSeconds() - started)
            try chunks.push(Chunk(document: document, bytes: bytes), sequence: sequence)
            sequence += 1
            state.addBytes(bytes?.count ?? 0)
            if bytes == nil { break }
        }
        document += 1
    }

    private func stoppedAtMaxPages(_ location: String, count: Int) {
        state.addWarnings(["\(location): stopped at max_pages (\(count) pages)"])
        fetched.update { $0.stoppedAtPages = count }
    }
}

/// How a unit was opened before its stages start.
enum OpenedUnit {
    /// Local files and stdin: each opened in turn by the fetch stage.
    case files
    /// One http(s) input, open.
    case single(any ChunkSource)
    /// One paged http(s) input.
    case paged(PagedSource)
    /// A RESO Web API resource, page after page by `@odata.nextLink`.
    case odata(ODataSource)
    case unchanged([InputIdentity], matched: Int64)
}

/// What the fetch stage learnt: each input's identity (bytes, sha256, ETag), and whether paging stopped at
/// `max_pages`.
struct FetchedUnit {
    var identities: [InputIdentity] = []
    var stoppedAtPages: Int?
    /// A request budget stopped a Web API source at a page boundary.
    var paused: RequestBudgetPause?
}

/// What the fetch stage tells the parse stage about each document: its name, and whether it is a page after the
/// first of a paged input (an empty one then ends the paging, which is no news).
struct FetchedDocument: Sendable {
    var name: String
    var laterPage = false
    /// The page number (from 1) of a paged input's page.
    var page: Int?
}
