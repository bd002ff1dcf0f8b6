import Testing
@testable import MLSFeed
@testable import MLSFeedFixtures

@Suite struct GenerateRandomTests {
    /// The reference SplitMix64 sequence for seed 0: the generator's output cannot drift across platforms.
    @Test func splitMix64ReferenceSequence() {
        var r = FixtureRandom(seed: 0)
        #expect(r.next() == 0xE220_A839_7B1D_CDAF)
        #expect(r.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(r.next() == 0x06C4_5D18_8009_454F)
    }

    @Test func drawsStayInRange() {
        var r = FixtureRandom(42, 7, 3)
        for _ in 0..<10_000 {
            #expect((3...9).contains(r.between(3, 9)))
            let u = r.unit()
            #expect(u >= 0 && u < 1)
            #expect((0..<3).contains(r.weighted([1, 0, 5])) && r.weighted([0, 4]) == 1)
        }
    }

    @Test(arguments: [
        (0, "0"), (999, "999"), (1000, "1,000"), (549_000, "549,000"), (1_250_000, "1,250,000"),
    ])
    func groupedNumbers(value: Int, text: String) {
        var rec = FixtureRecord()
        rec.appendGrouped(value)
        #expect(String(decoding: rec.bytes, as: UTF8.self) == text)
    }

    @Test(arguments: [
        (32_748_912, 6, "32.748912"), (-117_162_500, 6, "-117.162500"), (1150, 3, "1.150"), (5, 2, "0.05"),
    ])
    func fixedPointNumbers(scaled: Int, places: Int, text: String) {
        var rec = FixtureRecord()
        rec.appendFixed(scaled, places: places)
        #expect(String(decoding: rec.bytes, as: UTF8.self) == text)
    }

    @Test(arguments: [(549_000, 0, "$549,000"), (549_000, 1, "549000"), (549_000, 2, "549000.00")])
    func priceSpellings(price: Int, style: Int, text: String) {
        #expect(FixtureListing.priceText(price, style: style) == text)
    }
}
