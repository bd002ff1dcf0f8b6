/// Plain values in one growable allocation, appended without an array's uniqueness and capacity bookkeeping.
///
/// For the parser thread's per-event appends (a syndication listing is about 90 elements and 180 text runs, and an
/// `Array` append cost 70-100 instructions each). Non-copyable: one owner holds the memory, a move hands it on, and
/// the buffer frees it when it dies.
struct GrowableBuffer<Element: BitwiseCopyable>: ~Copyable {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int = 16) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The elements so far; valid until the next append or `reserve`, and while the buffer lives.
    var elements: UnsafeBufferPointer<Element> {
        UnsafeBufferPointer(start: base, count: count)
    }

    var isEmpty: Bool { count == 0 }

    var last: Element? { count > 0 ? base[count - 1] : nil }

    subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < count, "index out of range")
            return base[index]
        }
        nonmutating set {
            precondition(index >= 0 && index < count, "index out of range")
            base[index] = newValue
        }
    }

    mutating func append(_ element: Element) {
        if count == capacity { grow(toAtLeast: count + 1) }
        (base + count).initialize(to: element)
        count += 1
    }

    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let source = elements.baseAddress, !elements.isEmpty else { return }
        if capacity - count < elements.count { grow(toAtLeast: count + elements.count) }
        (base + count).initialize(from: source, count: elements.count)
        count += elements.count
    }

    @discardableResult
    mutating func removeLast() -> Element {
        precondition(count > 0, "removeLast of an empty buffer")
        count -= 1
        return base[count]
    }

    /// Keeps the first `newCount` elements.
    mutating func truncate(to newCount: Int) {
        precondition(newCount >= 0 && newCount <= count, "truncate past the end")
        count = newCount
    }

    /// Forgets every element, keeping the memory.
    mutating func removeAll() {
        count = 0
    }

    /// Room for at least `minimum` elements without another allocation.
    mutating func reserve(_ minimum: Int) {
        if minimum > capacity { grow(toAtLeast: minimum) }
    }

    private mutating func grow(toAtLeast minimum: Int) {
        var newCapacity = capacity * 2
        while newCapacity < minimum { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
