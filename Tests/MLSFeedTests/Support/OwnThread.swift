import Foundation
import Testing

/// Runs each test of a suite on a thread of its own, off Swift's cooperative pool, at most `OwnThread.width` at once.
///
/// Swift Testing runs a synchronous test on the cooperative pool, which has one thread per core, and these tests
/// spend most of their time waiting on other processes: PostgreSQL, the built binary, the Python stand-in servers.
/// On a 2-core machine two waiting tests held the whole pool while the cores had work to spare. Each test case of a
/// suite marked `.ownThread` waits (without holding a pool thread) for one of `width` slots, then runs on a new
/// thread; every other test stays on the pool.
struct OwnThread: SuiteTrait, TestTrait, TestScoping {
    /// How many such tests run at once: three per core, at least four (each holds a few database connections).
    static let width = max(4, 3 * ProcessInfo.processInfo.activeProcessorCount)

    /// The free slots, shared by every suite marked `.ownThread`.
    private static let slots = Slots(width)

    /// Nested suites and every test in them run so too.
    var isRecursive: Bool { true }

    /// A test case's body on a thread of its own; a suite, or a test as a whole, as it is.
    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        guard testCase != nil else { return try await function() }
        await Self.slots.acquire()
        defer { Self.slots.release() }
        try await withTaskExecutorPreference(ThreadPerJob.shared) { try await function() }
    }

    /// A task executor that runs every job on a new thread.
    private final class ThreadPerJob: TaskExecutor, @unchecked Sendable {
        static let shared = ThreadPerJob()

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            let executor = asUnownedTaskExecutor()
            Thread { job.runSynchronously(on: executor) }.start()
        }
    }

    /// A counting semaphore whose waiters suspend instead of blocking their thread.
    private final class Slots: @unchecked Sendable {
        private let lock = NSLock()
        private var free: Int
        private var waiting: [CheckedContinuation<Void, Never>] = []

        init(_ count: Int) { free = count }

        /// Takes a slot, waiting for one to be released when none is free.
        func acquire() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                lock.lock()
                if free > 0 {
                    free -= 1
                    lock.unlock()
                    continuation.resume()
                } else {
                    waiting.append(continuation)
                    lock.unlock()
                }
            }
        }

        /// Gives a slot back: to the longest waiter, if any.
        func release() {
            lock.lock()
            if waiting.isEmpty {
                free += 1
                lock.unlock()
            } else {
                let next = waiting.removeFirst()
                lock.unlock()
                next.resume()
            }
        }
    }
}

extension Trait where Self == OwnThread {
    /// Each test case on a thread of its own, off the cooperative pool (tests that wait on other processes).
    static var ownThread: OwnThread { OwnThread() }
}
