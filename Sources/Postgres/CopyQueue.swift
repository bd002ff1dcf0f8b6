import Dispatch
import Foundation

/// COPYs sent in order on a worker thread of their own while their producer goes on: the server reads one batch
/// while the next is encoded. The payloads waiting or in flight hold at most `byteLimit` bytes, or one and a half
/// times the largest payload queued so far if that is more (one payload is always let in); the producer waits
/// beyond that. So a batch's small COPYs queue behind its big one, and the next batch's big one waits for it: two
/// batches at most, one on the server and one being encoded.
///
/// A COPY that fails keeps its error for the next `enqueue` or `settle` to throw, and the COPYs queued after it are
/// dropped (the transaction they belong to is aborted anyway). The largest sent payload's buffer comes back emptied
/// (`spareBuffer`), so a steady producer reuses the same two allocations.
final class CopyQueue: @unchecked Sendable {
    /// Guarded by `condition` (see `raiseLimit`).
    private var byteLimit: Int
    private let worker = DispatchQueue(label: "postgres.copy-queue")
    /// Guards everything below; signalled whenever a COPY ends.
    private let condition = NSCondition()
    private var queuedBytes = 0
    private var queuedCopies = 0
    private var largestPayload = 0
    private var failure: Error?
    private var spare: [UInt8]?
    /// How many `enqueue` calls wait for room now.
    private var waiting = 0

    init(byteLimit: Int) {
        self.byteLimit = byteLimit
    }

    /// How many producers wait in `enqueue` for room now (what a test watches to know one is held back).
    var waitingProducers: Int {
        condition.lock()
        defer { condition.unlock() }
        return waiting
    }

    /// Lets the queue hold up to `bytes` (never less than it does): a producer that queues a long statement lets
    /// the COPYs after it wait in memory instead of waiting itself.
    func raiseLimit(to bytes: Int) {
        condition.lock()
        byteLimit = max(byteLimit, bytes)
        condition.unlock()
    }

    /// Hands `payload` to `send` on the worker once there is room. `send` runs one COPY; what it throws is kept,
    /// and thrown (once) by the next call here instead of queuing more.
    func enqueue(_ payload: consuming [UInt8], _ send: @escaping @Sendable ([UInt8]) throws -> Void) throws {
        let box = Payload(consume payload)
        let size = box.bytes.count
        condition.lock()
        largestPayload = max(largestPayload, size)
        let limit = max(byteLimit, largestPayload + largestPayload / 2)
        // Bounded by the COPYs in flight, which the connection's `cancel` stops.
        while failure == nil && queuedCopies > 0 && queuedBytes + size > limit {
            waiting += 1
            condition.wait()
            waiting -= 1
        }
        if let error = failure {
            failure = nil
            condition.unlock()
            throw error
        }
        queuedBytes += size
        queuedCopies += 1
        condition.unlock()
        worker.async { [self] in
            condition.lock()
            let failed = failure != nil
            condition.unlock()
            var error: Error?
            if !failed {
                do { try send(box.bytes) } catch let thrown { error = thrown }
            }
            var emptied = box.take()
            emptied.removeAll(keepingCapacity: true)
            condition.lock()
            if let error, failure == nil { failure = error }
            // The largest buffer is kept: a small COPY's must not crowd out a batch's.
            if emptied.capacity > spare?.capacity ?? -1 { spare = emptied }
            queuedBytes -= size
            queuedCopies -= 1
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Waits until every queued COPY has run; throws the first failure, once.
    func settle() throws {
        condition.lock()
        while queuedCopies > 0 { condition.wait() }
        let error = failure
        failure = nil
        condition.unlock()
        if let error { throw error }
    }

    /// The spare buffer (empty, with the capacity of the largest payload sent since it was last taken) for a
    /// payload of about `bytes`, if there is one and `bytes` would fill at least half of it (a small payload
    /// leaves it to the next big one).
    func spareBuffer(for bytes: Int) -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        guard let capacity = spare?.capacity, bytes * 2 >= capacity else { return nil }
        return spare.take()
    }

    /// A payload's one owner on its way to the worker, so the worker can take the buffer back uniquely referenced.
    private final class Payload: @unchecked Sendable {
        private(set) var bytes: [UInt8]

        init(_ bytes: consuming [UInt8]) {
            self.bytes = consume bytes
        }

        func take() -> [UInt8] {
            defer { bytes = [] }
            return bytes
        }
    }
}
