/// Reads one input's bytes, chunk by chunk, into raw records (a streaming libxml2 push parser underneath).
///
/// The driver calls `feed` with each chunk as it arrives, `takeRecords` whenever it wants the records completed
/// so far, and `finish` once at end of input. Errors thrown are `InputError`s carrying file, line and column.
package protocol RecordReader: AnyObject {
    /// Parses the next chunk of the input.
    func feed(_ chunk: ArraySlice<UInt8>) throws
    /// Ends the input: a truncated document throws here.
    func finish() throws
    /// The records completed since the last call, in feed order; a flat record's fields left unsplit (in its
    /// `unsplit`) unless `split` is true.
    func takeRecords(split: Bool) -> [RawRecord]
    /// Warnings and counts gathered so far.
    var report: ParseReport { get }
    /// The bytes of records the reader holds now (gathered texts, trees being built): a batch's and the open
    /// record's, never a whole input (`format.max_record_bytes` bounds the open record).
    var heldBytes: Int { get }
}

extension RecordReader {
    /// The records completed since the last call, in feed order, every field split out.
    package func takeRecords() -> [RawRecord] {
        takeRecords(split: true)
    }
}

/// What a reader noticed besides records: warnings for the run summary and counts.
package struct ParseReport: Sendable, Hashable {
    /// Warnings the run summary shows (RETS 20208 truncation, COUNT differing from rows, ...).
    package var warnings: [String] = []
    /// Control characters removed by `sanitize: true`.
    package var sanitizedCharacters: Int = 0
    /// Records the document said it holds (RETS `COUNT`), when it said.
    package var declaredCount: Int?
    /// RETS `<MAXROWS/>`: the server stopped at its row limit.
    package var maxRows = false
    /// RETS reply code 20208 (in `RETS` or `RETS-STATUS`): the result was truncated.
    package var truncated = false
    /// The time the document says it was made (the root element's `generated` attribute), as written.
    package var generated: String?
    /// Set when the document held no record at all: says which element was looked for. Not a warning by itself
    /// (the last page of a paged source is empty on purpose); the runner decides.
    package var noRecords: String?
    /// An OData page's `@odata.nextLink`: where the next page is.
    package var nextLink: String?
    /// For a structured feed, per mapping path: in how many records it matched, and in how many more than once.
    package var pathMatches: [String: PathMatches] = [:]

    package init() {}
}

/// How often a mapping path matched in the records of a structured feed.
package struct PathMatches: Sendable, Hashable {
    /// Records in which the path matched.
    package var records = 0
    /// Records in which it matched more than once (a scalar field takes the first match).
    package var repeated = 0

    package init(records: Int = 0, repeated: Int = 0) {
        self.records = records
        self.repeated = repeated
    }
}
