import Foundation

/// A value another thread is still producing: readers block in `value` until it is `fulfil`led, once.
public final class Pending<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Value?

    public init() {}

    /// A value that is already there.
    public init(_ value: Value) {
        result = value
    }

    public func fulfil(_ value: Value) {
        condition.lock()
        defer { condition.unlock() }
        guard result == nil else { return }
        result = value
        condition.broadcast()
    }

    /// The value, waiting for it if need be.
    public var value: Value {
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        return result!
    }
}
