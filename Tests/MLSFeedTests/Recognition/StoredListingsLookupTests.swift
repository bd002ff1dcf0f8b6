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
        for (hash, micros) in pairs {
            #expect(stored.lookup(hash).map { $0.epochMicroseconds == micros } == true)
            #expect(stored.lookup(hash)?.place == stored.index(of: hash))
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

    @Test(arguments: [
        (0, "1970-01-01T00:00:00Z"), (1_500_000, "1970-01-01T00:00:01.5Z"), (-1, "1969-12-31T23:59:59.999999Z"),
        (-1_000_000, "1969-12-31T23:59:59Z"), (1_406_655_997_263_000, "2014-07-29T17:46:37.263Z"),
    ] as [(Int64, String)])
    func storedTimesKeepTheirMicroseconds(micros: Int64, expected: String) {
        #expect(StoredCopy(epochMicroseconds: micros, place: 0).modificationTimestamp == expected)
    }
}
