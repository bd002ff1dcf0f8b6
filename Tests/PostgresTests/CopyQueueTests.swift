import Dispatch
import Foundation
@testable import Postgres
import Testing

@Suite struct CopyQueueTests {
    /// Whether a producer comes to wait in `queue`'s `enqueue` (checked every millisecond, for at most 30 s): the
    /// state itself, not a time hoped long enough for it.
    static func producerWaits(_ queue: CopyQueue) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while queue.waitingProducers == 0 {
            guard Date() < deadline else { return false }
            usleep(1_000)
        }
        return true
    }

    /// What the fake COPYs saw, shared with the worker.
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [[UInt8]] = []

        func append(_ payload: [UInt8]) {
            lock.withLock { entries.append(payload) }
        }

        var all: [[UInt8]] { lock.withLock { entries } }
    }

    struct Refused: Error, Equatable {
        let payload: [UInt8]
    }

    @Test func runsCopiesInTheOrderQueued() throws {
        let queue = CopyQueue(byteLimit: 1 << 20)
        let log = Log()
        for n in 0..<50 {
            try queue.enqueue([UInt8(n), 1, 2]) { log.append($0) }
        }
        try queue.settle()
        #expect(log.all == (0..<50).map { [UInt8($0), 1, 2] })
    }

    @Test func aPayloadLargerThanTheLimitStillGoesWhenNothingIsQueued() throws {
        let queue = CopyQueue(byteLimit: 4)
        let log = Log()
        try queue.enqueue(Array(repeating: 7, count: 100)) { log.append($0) }
        try queue.settle()
        #expect(log.all.map(\.count) == [100])
    }

    @Test func aBatchsSmallCopiesQueueBehindItsBigOneAndTheNextBigOneWaits() throws {
        let queue = CopyQueue(byteLimit: 10)
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let log = Log()
        try queue.enqueue(Array(repeating: 1, count: 100)) {
            started.signal()
            release.wait()
            log.append($0)
        }
        started.wait()
        // Within one and a half times the largest payload: queued at once while the big one runs.
        try queue.enqueue(Array(repeating: 2, count: 20)) { log.append($0) }
        try queue.enqueue(Array(repeating: 3, count: 20)) { log.append($0) }
        let next = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? queue.enqueue(Array(repeating: 4, count: 100)) { log.append($0) }
            next.signal()
        }
        #expect(Self.producerWaits(queue))
        #expect(next.wait(timeout: .now()) == .timedOut)
        release.signal()
        #expect(next.wait(timeout: .now() + 10) == .success)
        try queue.settle()
        #expect(log.all.map { $0.first } == [1, 2, 3, 4])
    }

    @Test func theProducerWaitsWhileTheQueuedBytesWouldPassTheLimit() throws {
        let queue = CopyQueue(byteLimit: 10)
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        try queue.enqueue(Array(repeating: 1, count: 8)) { _ in
            started.signal()
            release.wait()
        }
        started.wait()
        let second = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? queue.enqueue(Array(repeating: 2, count: 8)) { _ in }
            second.signal()
        }
        // 8 + 8 bytes would pass the limit of 10: the second COPY is let in only when the first has run.
        #expect(Self.producerWaits(queue))
        #expect(second.wait(timeout: .now()) == .timedOut)
        release.signal()
        #expect(second.wait(timeout: .now() + 10) == .success)
        try queue.settle()
    }

    @Test func aFailureIsThrownOnceAndTheCopiesQueuedAfterItAreDropped() throws {
        let queue = CopyQueue(byteLimit: 1 << 20)
        let log = Log()
        let gate = DispatchSemaphore(value: 0)
        // The first COPY holds the worker until all three are queued.
        try queue.enqueue([1]) {
            gate.wait()
            log.append($0)
        }
        try queue.enqueue([2]) { throw Refused(payload: $0) }
        try queue.enqueue([3]) { log.append($0) }
        gate.signal()
        let error = try #require(throws: Refused.self) { try queue.settle() }
        #expect(error == Refused(payload: [2]))
        #expect(log.all == [[1]])
        try queue.settle()
        try queue.enqueue([4]) { log.append($0) }
        try queue.settle()
        #expect(log.all == [[1], [4]])
    }

    @Test func theNextEnqueueThrowsAFailureInsteadOfQueuing() throws {
        let queue = CopyQueue(byteLimit: 10)
        let log = Log()
        try queue.enqueue(Array(repeating: 1, count: 8)) { throw Refused(payload: $0) }
        // 8 + 8 bytes wait for the first COPY, which has failed by then.
        let error = try #require(throws: Refused.self) {
            try queue.enqueue(Array(repeating: 2, count: 8)) { log.append($0) }
        }
        #expect(error == Refused(payload: Array(repeating: 1, count: 8)))
        try queue.settle()
        #expect(log.all.isEmpty)
    }

    @Test func theLargestSentPayloadComesBackEmpty() throws {
        let queue = CopyQueue(byteLimit: 1 << 20)
        for size in [10, 5000, 300] {
            try queue.enqueue(Array(repeating: 0, count: size)) { _ in }
        }
        try queue.settle()
        // A payload too small to fill half of it leaves it for the next big one.
        #expect(queue.spareBuffer(for: 100) == nil)
        let spare = try #require(queue.spareBuffer(for: 4000))
        #expect(spare.isEmpty)
        #expect(spare.capacity >= 5000)
        #expect(queue.spareBuffer(for: 4000) == nil)
        try queue.enqueue(Array(repeating: 0, count: 300)) { _ in }
        try queue.settle()
        #expect(try #require(queue.spareBuffer(for: 300)).capacity >= 300)
    }
}
