/// An array's elements in order, each moved out as it is reached: `for record in MovingIterator(consume batch)`.
///
/// A `for` loop over an array copies each element, retaining every reference it holds, and the array releases them
/// again when it goes: a record of a dozen references pays that twice per stage. Moving costs neither, as long as
/// the array's storage is not shared (shared storage is copied once, first).
struct MovingIterator<Element>: Sequence, IteratorProtocol {
    /// The elements not yet handed out, last first.
    private var rest: [Element]

    init(_ array: consuming [Element]) {
        rest = consume array
        // Reversed through the buffer, whose swaps move (`Array.reverse` swaps by copying).
        rest.withUnsafeMutableBufferPointer { $0.reverse() }
    }

    mutating func next() -> Element? {
        rest.popLast()
    }
}

extension Array {
    /// Appends `other`'s elements, moved (see `MovingIterator`). An empty array without room for them takes `other`'s
    /// storage as it is; one with room (a buffer reserved and kept across batches) keeps its own.
    mutating func append(moving other: consuming [Element]) {
        if isEmpty && capacity < other.count {
            self = consume other
            return
        }
        reserveCapacity(count + other.count)
        for element in MovingIterator(consume other) { append(consume element) }
    }
}
