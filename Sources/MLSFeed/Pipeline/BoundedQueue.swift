import Foundation

/// A bounded, sequence-ordered queue of batches between two stages: producers block when it is full
/// (backpressure), consumers receive batches in sequence order whatever order the workers finished in.
///
/// The batch a consumer waits for next may always be pushed, even into a full queue, so several out-of-order
/// workers upstream can never deadlock against an in-order consumer downstream.
final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Int: Element] = [:]
    private var next = 0
    private var producers: Int
    private var cancelled = false
    /// How many `push` calls wait for room now.
    private var waiting = 0
    let capacity: Int

    init(capacity: Int, producers: Int = 1) {
        self.capacity = max(1, capacity)
        self.producers = producers
    }

    /// Adds the batch with sequence number `sequence`, waiting while the queue is full. The batch is moved in, so
    /// the consumer gets the only reference to its storage (see `MovingIterator`).
    func push(_ item: consuming Element, sequence: Int) throws {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity && sequence != next && !cancelled {
            waiting += 1
            condition.wait()
            waiting -= 1
        }
        if cancelled { throw CancellationError() }
        items[sequence] = consume item
        condition.broadcast()
    }

    /// The next batch in sequence order, or nil once every producer has finished and the queue is drained.
    func pop() throws -> (sequence: Int, item: Element)? {
        condition.lock()
        defer { condition.unlock() }
        while items[next] == nil && producers > 0 && !cancelled { condition.wait() }
        if cancelled { throw CancellationError() }
        guard let item = items.removeValue(forKey: next) else { return nil }
        let sequence = next
        next += 1
        condition.broadcast()
        return (sequence, item)
    }

    /// How many producers wait in `push` for room now (what a test watches to know a producer is held back).
    var waitingProducers: Int {
        condition.lock()
        defer { condition.unlock() }
        return waiting
    }

    /// One producer is done; when all are, consumers drain what is left and then get nil.
    func producerFinished() {
        condition.lock()
        producers -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Wakes every waiter with `CancellationError`.
    func cancel() {
        condition.lock()
        cancelled = true
        items.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
