/// A converted batch of flat records, shared by those whose fields are not split yet (`UnsplitFields`).
///
/// Once the last of them is split (or dropped), its text goes back to `spares` for one of the parser's next batches:
/// a fresh megabyte-sized buffer per batch would be mapped, faulted in and unmapped each time.
final class SharedBatch<Batch: SplittableBatch>: FieldSource {
    let batch: Batch
    private let spares: SpareTexts

    init(_ batch: Batch, spares: SpareTexts) {
        self.batch = batch
        self.spares = spares
    }

    func fields(at index: Int, recent: inout RecentValues) -> [RawField] {
        batch.fields(at: index, recent: &recent)
    }

    deinit { spares.give(batch.bytes) }
}

/// A batch of flat records whose text `SharedBatch` shares.
protocol SplittableBatch: Sendable {
    /// The records' texts, one after the other.
    var bytes: [UInt8] { get }
    /// Entry `index`'s fields (its field count was checked when it was converted).
    func fields(at index: Int, recent: inout RecentValues) -> [RawField]
}

/// Text buffers of batches whose records are all split, for the parser to fill again (at most `limit` kept).
final class SpareTexts: Sendable {
    private let spares = Locked<[[UInt8]]>([])
    private static var limit: Int { 2 }

    /// A spare buffer, or an empty array when none is left.
    func take() -> [UInt8] {
        var taken: [UInt8] = []
        spares.update { if let last = $0.popLast() { taken = last } }
        return taken
    }

    /// Keeps `bytes` for `take`, unless enough are kept already.
    func give(_ bytes: [UInt8]) {
        guard bytes.capacity > 0 else { return }
        spares.update { if $0.count < Self.limit { $0.append(bytes) } }
    }
}
