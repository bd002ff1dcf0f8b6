import Testing
@testable import MLSFeed

@Suite struct StoredListingsLookupTests {
    @Test func everyStoredHashIsFoundWithItsTimeAndNoOtherIs() {
        var random = SystemRandomNumberGenerator()
        var pairs: [(UInt64, Int64?)] = (0..<100_000).map { i in
            (UInt64.random(in: .min ... .max, using: &random), i % 7 == 0 ? nil : Int64(i))
        }
        pairs += [(0, 5), (UInt64.max, 6), (1 << 48, 7), ((1 << 48) - 1, 8)]
        let stored = StoredListings(pairs)
        #expect(stored.count == pairs.count)
        for (hash, seconds) in pairs {
            #expect(stored.lookup(hash) == StoredCopy(epochSeconds: seconds))
        }
        let present = Set(pairs.map(\.0))
        var absent = 0
        while absent < 10_000 {
            let hash = UInt64.random(in: .min ... .max, using: &random)
            guard !present.contains(hash) else { continue }
            #expect(stored.lookup(hash) == nil)
            absent += 1
        }
        #expect(StoredListings().lookup(0) == nil)
    }
}
