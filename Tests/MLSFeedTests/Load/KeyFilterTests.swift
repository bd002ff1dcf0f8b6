import Testing
@testable import MLSFeed

@Suite struct KeyFilterTests {
    @Test func everyKeyIsNewOnceAndSeenAfter() {
        var filter = KeyFilter()
        let keys = (0..<200_000).map { "2600\($0)" }
        var falsePositives = 0
        for key in keys where !filter.insert(key) { falsePositives += 1 }
        // Expected about 200,000 × 1e-7: zero or one; never a key reported new twice.
        #expect(falsePositives <= 2)
        #expect(keys.allSatisfy { !filter.insert($0) })
    }
}
