import Foundation

/// One batch being converted by up to two threads, which claim blocks of entries under a lock.
final class ConversionJob<Batch: Sendable>: @unchecked Sendable {
    // @unchecked: `next` and `blocks` are only touched while holding `lock`; the rest is immutable.
    private static var blockSize: Int { 64 }
    private let batch: Batch
    private let count: Int
    private let convert: @Sendable (Batch, Range<Int>) -> [RawRecord]
    private let lock = NSLock()
    private var next = 0
    private var blocks: [(start: Int, records: [RawRecord])] = []

    init(batch: Batch, count: Int, convert: @escaping @Sendable (Batch, Range<Int>) -> [RawRecord]) {
        self.batch = batch
        self.count = count
        self.convert = convert
    }

    /// Converts blocks until none is left to claim.
    func work() {
        while let range = claim() {
            let records = convert(batch, range)
            lock.withLock { blocks.append((range.lowerBound, records)) }
        }
    }

    /// All records, in entry order (call once every worker is done).
    func results() -> [RawRecord] {
        lock.withLock {
            var taken: [(start: Int, records: [RawRecord])] = []
            swap(&taken, &blocks)
            if taken.count == 1 { return taken[0].records }
            taken.sort { $0.start < $1.start }
            var records: [RawRecord] = []
            records.reserveCapacity(count)
            // Moved block by block, record by record: appending a copy would retain and release every record.
            for (_, block) in MovingIterator(consume taken) { records.append(moving: consume block) }
            return records
        }
    }

    private func claim() -> Range<Int>? {
        lock.withLock {
            guard next < count else { return nil }
            let range = next..<min(count, next + Self.blockSize)
            next = range.upperBound
            return range
        }
    }
}
