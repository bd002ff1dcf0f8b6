import Dispatch
import Testing
@testable import MLSFeed

@Suite struct BlockingFutureTests {
    @Test func readersWaitForTheFirstValueAndKeepIt() throws {
        let pending = BlockingFuture<Int>()
        let readers = DispatchGroup()
        let seen = Locked<[Int]>([])
        for _ in 0..<4 {
            DispatchQueue.global().async(group: readers) {
                let value = pending.value
                seen.update { $0.append(value) }
            }
        }
        // All four wait for the value.
        try waitUntil { pending.waitingReaders == 4 }
        #expect(readers.wait(timeout: .now()) == .timedOut)
        pending.fulfil(7)
        pending.fulfil(8)
        #expect(readers.wait(timeout: .now() + 10) == .success)
        #expect(seen.value == [7, 7, 7, 7])
        #expect(pending.value == 7)
        #expect(BlockingFuture(3).value == 3)
    }
}
