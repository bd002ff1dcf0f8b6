import Foundation

/// Shared state of one pipeline run: the first error (which cancels everything) and per-stage metrics.
final class RunControl: @unchecked Sendable {
    /// Set when the run fails or is stopped: every wait of the run (sleeps, transfers, statements) observes it.
    let cancellation = Cancellation()
    private let lock = NSLock()
    private var firstError: Error?
    private var cancellers: [() -> Void] = []
    private var metrics: [String: StageMetrics] = [:]
    private var order: [String] = []

    /// Registers a queue (or anything) to be cancelled when the run fails.
    func onCancel(_ cancel: @escaping () -> Void) {
        lock.lock()
        let already = firstError != nil
        cancellers.append(cancel)
        lock.unlock()
        if already { cancel() }
    }

    /// Records the first error and cancels every stage; later errors (usually cancellations) are ignored.
    func fail(_ error: Error) {
        lock.lock()
        guard firstError == nil else {
            lock.unlock()
            return
        }
        firstError = error
        let toCancel = cancellers
        lock.unlock()
        for cancel in toCancel { cancel() }
        cancellation.cancel()
    }

    var error: Error? {
        lock.lock()
        defer { lock.unlock() }
        return firstError
    }

    var isCancelled: Bool { error != nil }

    /// Throws `CancellationError` once the run has failed or been stopped.
    func check() throws {
        if isCancelled { throw CancellationError() }
    }

    /// Adds one batch's counts and busy time to a stage's metrics.
    func record(stage: String, batchesIn: Int = 1, itemsIn: Int, itemsOut: Int, seconds: Double) {
        lock.lock()
        if metrics[stage] == nil {
            metrics[stage] = StageMetrics(name: stage)
            order.append(stage)
        }
        metrics[stage]!.batches += batchesIn
        metrics[stage]!.itemsIn += itemsIn
        metrics[stage]!.itemsOut += itemsOut
        metrics[stage]!.seconds += seconds
        lock.unlock()
    }

    /// Registers stages up front so the summary lists them in pipeline order.
    func declare(stages: [String]) {
        lock.lock()
        for stage in stages where metrics[stage] == nil {
            metrics[stage] = StageMetrics(name: stage)
            order.append(stage)
        }
        lock.unlock()
    }

    var stageMetrics: [StageMetrics] {
        lock.lock()
        defer { lock.unlock() }
        return order.map { metrics[$0]! }
    }
}

/// Counts and busy time of one stage, summed over its workers.
package struct StageMetrics: Sendable, Hashable {
    package var name: String
    package var batches = 0
    package var itemsIn = 0
    package var itemsOut = 0
    /// Time spent working (not waiting on queues), summed over workers.
    package var seconds = 0.0

    package init(name: String) {
        self.name = name
    }
}

/// Monotonic seconds for stage timings.
func monotonicSeconds() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1e9
}
