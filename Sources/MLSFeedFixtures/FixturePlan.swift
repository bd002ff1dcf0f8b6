import MLSFeed

/// Which listings of a market get which dirt, and (for a delta) which change, appear or disappear overnight.
///
/// Counts are exact (`rate × listings`, rounded, at least one of each kind whose rate is non-zero) and the chosen
/// listings are drawn from the market seed, so a base and its delta agree. Only these small sets are held in memory.
struct FixturePlan {
    enum Dirt: Equatable {
        /// Written twice; variant 0: the copy is newer, 1: older, 2: same timestamp.
        case duplicate(variant: Int)
        /// `extra`: one value too many (a leaked delimiter), else one too few.
        case countMismatch(extra: Bool)
        /// The list price is `FixtureListing.badPrices[variant]`.
        case badPrice(variant: Int)
        case emptyMLSNumber
    }

    var dirt: [Int: Dirt] = [:]
    var changed: Set<Int> = []
    var gone: Set<Int> = []
    var newListings = 0
    let listings: Int

    init(seed: UInt64, listings n: Int, rates: FixtureOptions.DirtRates, format: FixtureOptions.Format) {
        listings = n
        var r = FixtureRandom(seed, 0xD1A7)
        let cap = n / 2
        let kinds: [(Double, Dirt)] = [
            (rates.emptyMLSNumbers, .emptyMLSNumber), (rates.badPrices, .badPrice(variant: 0)),
            (format.hasDelimitedRows ? rates.countMismatches : 0, .countMismatch(extra: true)),
            (rates.duplicates, .duplicate(variant: 0)),
        ]
        for (rate, kind) in kinds {
            let count = FixturePlan.count(rate, of: n)
            var picked: [Int] = []
            while picked.count < count && dirt.count < cap {
                let index = r.below(n)
                if dirt[index] != nil { continue }
                dirt[index] = kind
                picked.append(index)
            }
            for (rank, index) in picked.sorted().enumerated() {
                switch kind {
                case .duplicate: dirt[index] = .duplicate(variant: rank % 3)
                case .countMismatch: dirt[index] = .countMismatch(extra: rank % 2 == 0)
                case .badPrice: dirt[index] = .badPrice(variant: rank % FixtureListing.badPrices.count)
                default: break
                }
            }
        }
    }

    /// `rate × n` rounded, but at least 1 when the rate is not zero.
    static func count(_ rate: Double, of n: Int) -> Int {
        rate > 0 ? max(1, Int((rate * Double(n)).rounded())) : 0
    }

    /// Picks the night's changed, gone and new listings among the clean ones (dirty listings stay as they were).
    mutating func planDelta(seed: UInt64, deltaSeed: UInt64, changed c: Double, gone g: Double, new: Double) {
        var r = FixtureRandom(seed, deltaSeed, 0xDE17A)
        let clean = listings - dirt.count
        let changedCount = min(FixturePlan.countZero(c, of: listings), clean)
        let goneCount = min(FixturePlan.countZero(g, of: listings), clean - changedCount)
        while changed.count < changedCount {
            let index = r.below(listings)
            if dirt[index] == nil { changed.insert(index) }
        }
        while gone.count < goneCount {
            let index = r.below(listings)
            if dirt[index] == nil && !changed.contains(index) { gone.insert(index) }
        }
        newListings = FixturePlan.countZero(new, of: listings)
    }

    /// `rate × n` rounded.
    static func countZero(_ rate: Double, of n: Int) -> Int {
        Int((rate * Double(n)).rounded())
    }

    /// Records the feed will hold.
    var records: Int {
        var duplicates = 0
        for case .duplicate in dirt.values { duplicates += 1 }
        return listings - gone.count + newListings + duplicates
    }
}
