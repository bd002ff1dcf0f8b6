import Foundation
import Testing
@testable import MLSFeed

@Suite struct CancellationTests {
    @Test func sleepWakesAtOnceWhenCancelledFromAnotherThread() throws {
        let cancellation = Cancellation()
        let woke = DispatchSemaphore(value: 0)
        let outcome = Locked<(any Error)?>(nil)
        DispatchQueue.global().async {
            do { try cancellation.sleep(seconds: 3600) } catch { outcome.update { $0 = error } }
            woke.signal()
        }
        // Cancelled once the sleep has begun (not before it, which would prove nothing): it ends at once.
        try waitUntil { cancellation.sleepers == 1 }
        cancellation.cancel()
        #expect(woke.wait(timeout: .now() + 30) == .success)
        #expect(outcome.value is CancellationError)
        #expect(cancellation.sleepers == 0)
        #expect(throws: CancellationError.self) { try cancellation.check() }
    }

    @Test func sleepRunsItsTimeWhenNotCancelled() throws {
        let cancellation = Cancellation()
        try cancellation.sleep(seconds: 0.01)
        try cancellation.check()
        #expect(!cancellation.isCancelled)
    }

    @Test func handlersRunOnceAndReleasedOnesNever() {
        let cancellation = Cancellation()
        let calls = Locked<[String]>([])
        let kept = cancellation.onCancel { calls.update { $0.append("kept") } }
        let released = cancellation.onCancel { calls.update { $0.append("released") } }
        released.release()
        cancellation.cancel()
        cancellation.cancel()
        let late = cancellation.onCancel { calls.update { $0.append("late") } }
        #expect(calls.value == ["kept", "late"])
        withExtendedLifetime((kept, late)) {}
    }
}
