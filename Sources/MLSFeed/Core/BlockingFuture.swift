import Foundation

/// A value another thread is still producing: readers block in `value` until it is `fulfil`led, once.
package final class BlockingFuture<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Value?
    /// How many readers wait in `value` now.
    private var waiting = 0

    package init() {}

    /// A value that is already there.
    package init(_ value: Value) {
        result = value
    }

    package func fulfil(_ value: Value) {
        condition.lock()
        defer { condition.unlock() }
        guard result == nil else { return }
        result = value
        condition.broadcast()
    }

    /// The value, waiting for it if need be.
    package var value: Value {
        condition.lock()
        defer { condition.unlock() }
        while result == nil {
            waiting += 1
            condition.wait()
            waiting -= 1
        }
        return result!
    }

    /// How many readers wait for the value now (what a test watches to know they are blocked).
    package var waitingReaders: Int {
        condition.lock()
        defer { condition.unlock() }
        return waiting
    }
}
