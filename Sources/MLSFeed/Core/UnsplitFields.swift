/// A flat record's fields still in its batch's text: split into `RawField`s by the stage that first needs them.
///
/// The parse stage of a flat format (triples, RETS COMPACT) finds each record's text, counts its fields and
/// fingerprints it, but makes no String: the normalize stage splits the record (`FieldSplitter.split`) on one of
/// its workers. The text stays shared by the batch's records until the last of them is split.
package struct UnsplitFields: Sendable, Hashable {
    /// The batch text the record lies in.
    let source: any FieldSource
    /// The record's entry in `source`.
    let index: Int

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.source === rhs.source && lhs.index == rhs.index
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(source))
        hasher.combine(index)
    }
}

/// A batch's text that its records' fields are split from.
protocol FieldSource: AnyObject, Sendable {
    /// Entry `index`'s fields, sharing a value repeated from the record before through `recent`.
    func fields(at index: Int, recent: inout RecentValues) -> [RawField]
}

/// Splits records' fields out of their batches' texts, sharing long values repeated from one record to the next.
package struct FieldSplitter {
    private var recent = RecentValues()
    private var source: ObjectIdentifier?

    package init() {}

    /// `record` with its fields split out, when they were not yet.
    package mutating func split(_ record: inout RawRecord) {
        guard let unsplit = record.unsplit else { return }
        let identity = ObjectIdentifier(unsplit.source)
        if identity != source {
            // Remembered values are ranges into the last batch's text.
            recent = RecentValues()
            source = identity
        }
        record.fields = unsplit.source.fields(at: unsplit.index, recent: &recent)
        record.unsplit = nil
    }

    /// Every record of `records` split.
    package static func split(_ records: inout [RawRecord]) {
        var splitter = FieldSplitter()
        for index in records.indices { splitter.split(&records[index]) }
    }
}
