import Testing
@testable import MLSFeed

/// `Array.split`: both sides in order; a side that takes everything is the array itself, not a copy.
@Suite struct ArraySplitTests {
    @Test(arguments: [
        ([1, 2, 3, 4, 5, 6], [2, 4, 6], [1, 3, 5]),
        ([2, 4], [2, 4], []),
        ([1, 3], [], [1, 3]),
        ([], [], []),
    ])
    func bothSidesKeepTheirOrder(input: [Int], even: [Int], odd: [Int]) {
        let (matching, rest) = input.split { $0 % 2 == 0 }
        #expect(matching == even)
        #expect(rest == odd)
    }

    @Test func aSideThatTakesEverythingSharesTheArraysStorage() {
        let input = Array(0..<1000)
        let base = input.withUnsafeBufferPointer { $0.baseAddress }
        let all = input.split { _ in true }
        let none = input.split { _ in false }
        #expect(all.matching.withUnsafeBufferPointer { $0.baseAddress } == base)
        #expect(none.rest.withUnsafeBufferPointer { $0.baseAddress } == base)
        let some = input.split { $0 < 999 }
        #expect(some.matching.withUnsafeBufferPointer { $0.baseAddress } != base)
        #expect(some.matching.count == 999 && some.rest == [999])
    }

    @Test func thePredicateSeesEachElementOnceInOrder() {
        var seen: [String] = []
        let (matching, rest) = ["a", "b", "a", "c"].split { element in
            seen.append(element)
            return element == "a"
        }
        #expect(seen == ["a", "b", "a", "c"])
        #expect(matching == ["a", "a"] && rest == ["b", "c"])
    }
}
