import Testing
@testable import MLSFeed

/// `MovingIterator`: every element in order, each moved out (the array no longer holds it); `append(moving:)`.
@Suite struct MovingIteratorTests {
    final class Box {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    @Test(arguments: [[], [7], [1, 2, 3, 4, 5]])
    func everyElementInOrder(input: [Int]) {
        var seen: [Int] = []
        for element in MovingIterator(input) { seen.append(element) }
        #expect(seen == input)
    }

    @Test func eachElementIsMovedOutNotCopied() {
        let array = (0..<100).map { Box($0) }
        var unique: [Bool] = []
        var values: [Int] = []
        for element in MovingIterator(consume array) {
            var box = consume element
            unique.append(isKnownUniquelyReferenced(&box))
            values.append(box.value)
        }
        #expect(unique == Array(repeating: true, count: 100))
        #expect(values == Array(0..<100))
    }

    @Test func sharedStorageIsCopiedAndTheOtherArrayKeepsItsElements() {
        let kept = (0..<10).map { Box($0) }
        var unique: [Bool] = []
        for element in MovingIterator(kept) {
            var box = consume element
            unique.append(isKnownUniquelyReferenced(&box))
        }
        #expect(unique == Array(repeating: false, count: 10))
        #expect(kept.map(\.value) == Array(0..<10))
    }

    @Test(arguments: [([], [1, 2]), ([1], [2, 3]), ([1, 2], [])])
    func appendMovingKeepsBothOrders(start: [Int], other: [Int]) {
        var array = start
        array.append(moving: other)
        #expect(array == start + other)
    }

    @Test func appendMovingIntoAnEmptyArrayTakesTheOtherStorage() {
        let other = (0..<100).map { Box($0) }
        let base = other.withUnsafeBufferPointer { $0.baseAddress }
        var array: [Box] = []
        array.append(moving: other)
        #expect(array.withUnsafeBufferPointer { $0.baseAddress } == base)
    }

    @Test func appendMovingIntoAnEmptyArrayWithRoomKeepsItsOwnStorage() {
        var array: [Box] = []
        array.reserveCapacity(1000)
        let base = array.withUnsafeBufferPointer { $0.baseAddress }
        array.append(moving: (0..<100).map { Box($0) })
        #expect(array.withUnsafeBufferPointer { $0.baseAddress } == base)
        #expect(array.map(\.value) == Array(0..<100))
    }
}
