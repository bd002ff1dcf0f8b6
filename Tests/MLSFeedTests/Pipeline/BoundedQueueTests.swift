import Dispatch
import Testing
@testable import MLSFeed

@Suite struct BoundedQueueTests {
    @Test func consumerSeesSequenceOrderWhateverThePushOrder() throws {
        let queue = BoundedQueue<Int>(capacity: 8)
        for sequence in [2, 0, 3, 1] { try queue.push(sequence * 10, sequence: sequence) }
        queue.producerFinished()
        var seen: [Int] = []
        while let (_, item) = try queue.pop() { seen.append(item) }
        #expect(seen == [0, 10, 20, 30])
    }

    @Test func fullQueueStillAcceptsTheBatchTheConsumerWaitsFor() throws {
        let queue = BoundedQueue<Int>(capacity: 2)
        try queue.push(1, sequence: 1)
        try queue.push(2, sequence: 2)
        // Full, but sequence 0 is next: it must not block (this is what prevents a deadlock).
        try queue.push(0, sequence: 0)
        queue.producerFinished()
        var seen: [Int] = []
        while let (_, item) = try queue.pop() { seen.append(item) }
        #expect(seen == [0, 1, 2])
    }

    @Test func producerBlocksWhenFullUntilConsumed() throws {
        let queue = BoundedQueue<Int>(capacity: 1)
        try queue.push(0, sequence: 0)
        let pushed = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? queue.push(1, sequence: 1)
            pushed.signal()
        }
        // The producer waits for room, and has not pushed.
        try waitUntil { queue.waitingProducers == 1 }
        #expect(pushed.wait(timeout: .now()) == .timedOut)
        _ = try queue.pop()
        #expect(pushed.wait(timeout: .now() + 5) == .success)
    }

    @Test func cancelWakesBlockedConsumers() {
        let queue = BoundedQueue<Int>(capacity: 1)
        let woke = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            #expect(throws: CancellationError.self) { _ = try queue.pop() }
            woke.signal()
        }
        queue.cancel()
        #expect(woke.wait(timeout: .now() + 5) == .success)
    }
}
