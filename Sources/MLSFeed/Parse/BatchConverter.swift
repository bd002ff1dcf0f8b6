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
            ready.append(moving: job.results())
        }
    }

    /// Finishes the batch in flight (helping the worker) and makes its records ready.
    func complete() {
        guard let (job, item) = inFlight else { return }
        inFlight = nil
        job.work()
        item.wait()
        ready.append(moving: job.results())
    }

    /// The converted records not yet taken.
    func takeReady() -> [RawRecord] {
        let taken = ready
        ready = []
        return taken
    }
}
