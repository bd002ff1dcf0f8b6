import Dispatch
import Foundation

/// COPYs sent in order on a worker thread of their own while their producer goes on: the server reads one batch
/// while the next is encoded. The payloads waiting or in flight hold at most `byteLimit` bytes (one payload is
/// always let in); the producer waits beyond that.
///
/// A COPY that fails keeps its error for the next `enqueue` or `settle` to throw, and the COPYs queued after it are
/// dropped (the transaction they belong to is aborted anyway). Payload buffers come back emptied (`spareBuffer`),
/// so a steady producer reuses the same few allocations.
final class CopyQueue: @unchecked Sendable {
    private let byteLimit: Int
    private let worker = DispatchQueue(label: "postgres.copy-queue")
    /// Guards everything below; signalled whenever a COPY ends.
    private let condition = NSCondition()
    private var queuedBytes = 0
    private var queuedCopies = 0
    private var failure: Error?
    private var spares: [[UInt8]] = []

    init(byteLimit: Int) {
        self.byteLimit = byteLimit
    }

    /// Hands `payload` to `send` on the worker once there is room. `send` runs one COPY; what it throws is kept,
    /// and thrown (once) by the next call here instead of queuing more.
    func enqueue(_ payload: consuming [UInt8], _ send: @escaping @Sendable ([UInt8]) throws -> Void) throws {
        let box = Payload(consume payload)
        let size = box.bytes.count
        condition.lock()
        // Bounded by the COPYs in flight, which the connection's `cancel` stops.
        while failure == nil && queuedCopies > 0 && queuedBytes + size > byteLimit { condition.wait() }
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
            // The two largest buffers are kept: a small COPY's must not crowd out a batch's.
            spares.append(emptied)
            if spares.count > 2 {
                spares.sort { $0.capacity < $1.capacity }
                spares.removeFirst()
            }
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

    /// The largest spare buffer (empty, with the capacity of a payload already sent), if there is one.
    func spareBuffer() -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        guard let largest = spares.indices.max(by: { spares[$0].capacity < spares[$1].capacity }) else { return nil }
        return spares.remove(at: largest)
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
