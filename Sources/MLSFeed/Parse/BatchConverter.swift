import Dispatch
import Foundation

/// Turns batches of parsed-but-unsplit records into `RawRecord`s on a worker thread while the parser reads on.
///
/// At most one batch is in flight. When the next batch arrives, the calling thread helps finish the one in flight
/// (both threads claim blocks of records from it), then hands the new batch to the worker. Records come out in
/// batch order and, within a batch, in entry order.
final class BatchConverter<Batch: Sendable> {
    private let queue = DispatchQueue(label: "mlsfeed.parse.convert")
    private let convert: @Sendable (Batch, Range<Int>) -> [RawRecord]
    private var inFlight: (job: ConversionJob<Batch>, item: DispatchWorkItem)?
    private var ready: [RawRecord] = []

    init(convert: @escaping @Sendable (Batch, Range<Int>) -> [RawRecord]) {
        self.convert = convert
    }

    /// Queues `batch` (of `count` entries): converted by the worker, or right here when `inBackground` is false.
    func submit(_ batch: Batch, count: Int, inBackground: Bool) {
        complete()
        let job = ConversionJob(batch: batch, count: count, convert: convert)
        if inBackground {
            let item = DispatchWorkItem { job.work() }
            queue.async(execute: item)
            inFlight = (job, item)
        } else {
            job.work()
            ready.append(contentsOf: job.results())
        }
    }

    /// Finishes the batch in flight (helping the worker) and makes its records ready.
    func complete() {
        guard let (job, item) = inFlight else { return }
        inFlight = nil
        job.work()
        item.wait()
        ready.append(contentsOf: job.results())
    }

    /// The converted records not yet taken.
    func takeReady() -> [RawRecord] {
        let taken = ready
        ready = []
        return taken
    }
}

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
            if blocks.count == 1 { return blocks[0].records }
            var records: [RawRecord] = []
            records.reserveCapacity(count)
            for block in blocks.sorted(by: { $0.start < $1.start }) { records.append(contentsOf: block.records) }
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
