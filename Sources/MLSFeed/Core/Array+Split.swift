extension Array {
    /// The elements that satisfy `belongs` and those that do not, each in order. When one side is empty the other
    /// is this array itself, shared, not copied: a batch usually goes whole one way, and copying a record retains
    /// and releases every reference it holds. `belongs` reads each element in place, once, in order.
    func split(_ belongs: (borrowing Element) throws -> Bool) rethrows -> (matching: [Element], rest: [Element]) {
        var marks = [Bool](repeating: false, count: count)
        var matching = 0
        try withUnsafeBufferPointer { elements in
            for i in elements.indices where try belongs(elements[i]) {
                marks[i] = true
                matching += 1
            }
        }
        if matching == count { return (self, []) }
        if matching == 0 { return ([], self) }
        var (yes, no): ([Element], [Element]) = ([], [])
        yes.reserveCapacity(matching)
        no.reserveCapacity(count - matching)
        for i in indices {
            if marks[i] { yes.append(self[i]) } else { no.append(self[i]) }
        }
        return (yes, no)
    }
}
