import Foundation
import Testing
@testable import MLSFeed

@Suite struct CancellationTests {
    @Test func sleepWakesAtOnceWhenCancelledFromAnotherThread() throws {
        let cancellation = Cancellation()
        let started = Date()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { cancellation.cancel() }
        #expect(throws: CancellationError.self) { try cancellation.sleep(seconds: 30) }
        #expect(Date().timeIntervalSince(started) < 5)
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
