import Foundation

/// A run's stop signal, set once (a signal, a failing stage): every wait of the run observes it.
///
/// Sleeps wake at once when it is set, blocking calls that cannot watch a flag register a handler that frees them
/// (`PQcancel`, aborting a transfer), and loops call `check()` between steps.
package final class Cancellation: @unchecked Sendable {
    private let condition = NSCondition()
    private var cancelled = false
    private var handlers: [Int: @Sendable () -> Void] = [:]
    private var nextHandler = 0
    /// How many threads are in `sleep` now.
    private var sleeping = 0

    package init() {}

    /// Whether the run was told to stop.
    package var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }

    /// Tells every waiter to stop: wakes sleepers and runs each registered handler once. Later calls do nothing.
    package func cancel() {
        condition.lock()
        guard !cancelled else {
            condition.unlock()
            return
        }
        cancelled = true
        let toRun = handlers.sorted { $0.key < $1.key }.map(\.value)
        handlers = [:]
        condition.broadcast()
        condition.unlock()
        for handler in toRun { handler() }
    }

    /// Throws `CancellationError` once the run was told to stop.
    package func check() throws {
        if isCancelled { throw CancellationError() }
    }

    /// Sleeps `seconds`, waking early (and throwing `CancellationError`) when the run is told to stop.
    package func sleep(seconds: Double) throws {
        let deadline = Date(timeIntervalSinceNow: max(0, seconds))
        condition.lock()
        defer { condition.unlock() }
        sleeping += 1
        defer { sleeping -= 1 }
        while !cancelled && Date() < deadline { _ = condition.wait(until: deadline) }
        if cancelled { throw CancellationError() }
    }

    /// How many threads sleep on it now (what a test watches to know a sleep has begun).
    package var sleepers: Int {
        condition.lock()
        defer { condition.unlock() }
        return sleeping
    }

    /// Runs `handler` when the run is told to stop (at once when it already was) until the registration is
    /// released; use it to free a call blocked where no flag can be watched.
    package func onCancel(_ handler: @escaping @Sendable () -> Void) -> Registration {
        condition.lock()
        if cancelled {
            condition.unlock()
            handler()
            return Registration(self, id: nil)
        }
        let id = nextHandler
        nextHandler += 1
        handlers[id] = handler
        condition.unlock()
        return Registration(self, id: id)
    }

    /// Runs `body` with `handler` registered for its duration.
    package func whileRunning<T>(onCancel handler: @escaping @Sendable () -> Void, _ body: () throws -> T) rethrows
        -> T {
        let registration = onCancel(handler)
        defer { registration.release() }
        return try body()
    }

    private func remove(_ id: Int) {
        condition.lock()
        handlers[id] = nil
        condition.unlock()
    }

    /// A registered handler; `release()` (or dropping it) unregisters it.
    package final class Registration: @unchecked Sendable {
        private weak var owner: Cancellation?
        private let id: Int?

        fileprivate init(_ owner: Cancellation, id: Int?) {
            self.owner = owner
            self.id = id
        }

        deinit { release() }

        /// Unregisters the handler (it will not run any more).
        package func release() {
            if let id { owner?.remove(id) }
        }
    }
}
