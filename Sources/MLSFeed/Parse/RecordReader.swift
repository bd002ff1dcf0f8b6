/// Reads one input's bytes, chunk by chunk, into raw records (a streaming libxml2 push parser underneath).
///
/// The driver calls `feed` with each chunk as it arrives, `takeRecords` whenever it wants the records completed
/// so far, and `finish` once at end of input. Errors thrown are `InputError`s carrying file, line and column.
public protocol RecordReader: AnyObject {
    /// Parses the next chunk of the input.
    func feed(_ chunk: ArraySlice<UInt8>) throws
    /// Ends the input: a truncated document throws here.
    func finish() throws
    /// The records completed since the last call, in feed order.
    func takeRecords() -> [RawRecord]
    /// Warnings and counts gathered so far.
    var report: ParseReport { get }
}

/// What a reader noticed besides records: warnings for the run summary and counts.
public struct ParseReport: Sendable, Hashable {
    /// Warnings the run summary shows (RETS 20208 truncation, COUNT differing from rows, ...).
    public var warnings: [String] = []
    /// Control characters removed by `sanitize: true`.
    public var sanitizedCharacters: Int = 0
    /// Records the document said it holds (RETS `COUNT`), when it said.
    public var declaredCount: Int?
    /// RETS `<MAXROWS/>`: the server stopped at its row limit.
    public var maxRows = false
    /// RETS reply code 20208 (in `RETS` or `RETS-STATUS`): the result was truncated.
    public var truncated = false
    /// The time the document says it was made (the root element's `generated` attribute), as written.
    public var generated: String?
    /// Set when the document held no record at all: says which element was looked for. Not a warning by itself
    /// (the last page of a paged source is empty on purpose); the runner decides.
    public var noRecords: String?
    /// An OData page's `@odata.nextLink`: where the next page is.
    public var nextLink: String?
    /// For a structured feed, per mapping path: in how many records it matched, and in how many more than once.
    public var pathMatches: [String: PathMatches] = [:]

    public init() {}
}

/// How often a mapping path matched in the records of a structured feed.
public struct PathMatches: Sendable, Hashable {
    /// Records in which the path matched.
    public var records = 0
    /// Records in which it matched more than once (a scalar field takes the first match).
    public var repeated = 0

    public init(records: Int = 0, repeated: Int = 0) {
        self.records = records
        self.repeated = repeated
    }
}
