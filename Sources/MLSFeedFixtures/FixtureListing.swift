import MLSFeed

/// One listing of the generated market: its core facts, drawn from (market seed, index) alone.
///
/// Core facts (status, prices, dates) can be changed by the delta and duplicate logic before `write`; every other
/// field is drawn from its own random stream, so changing a core fact never changes any other field.
struct FixtureListing {
    enum Status: Int {
        case active, pending, sold, expired, withdrawn
    }

    static let propertyTypes = ["Single Family Residential", "Condo", "Multifamily", "Land"]
    static let badPrices = ["call agent", "TBD", "Call Agent", "see remarks"]

    let seed: UInt64
    let index: Int
    var mlsNumber: String
    var status: Status
    /// Write the one-letter status word (`A`, `P`, `S`) where there is one.
    var terseStatus: Bool
    var propertyType: Int
    var cityIndex: Int
    var listPrice: Int
    var origPrice: Int
    var soldPrice: Int
    var listDay: Int
    var soldDay: Int
    /// Naive local seconds.
    var modified: Int
    /// Dirt: a list price that is not a number.
    var badPrice: String?
    /// Dirt: the MLS number left empty.
    var emptyMLSNumber = false
    /// 0 `$549,000`, 1 `549000`, 2 `549000.00`.
    let priceStyle: Int
    /// 0 ISO, 1 `MM/dd/yyyy hh:mm:ss AM`.
    let modifiedStyle: Int

    /// The listing `index` of the market `seed` as of the dump taken at `dumpLocal` (naive local seconds).
    /// A listing first listed in the night before the dump of `newOnNight` (1, 2, ...) gets fresh dates.
    init(seed: UInt64, index: Int, dumpLocal: Int, newOnNight night: Int? = nil) {
        self.seed = seed
        self.index = index
        var r = FixtureRandom(seed, UInt64(index), 1)
        mlsNumber = r.chance(0.03)
            ? "SD-" + FixtureListing.padded(index, 7) : String(260_000_000 + index * 3 + r.below(3))
        status = [Status.active, .pending, .sold, .expired, .withdrawn][r.weighted([55, 15, 22, 5, 3])]
        terseStatus = r.chance(0.08)
        propertyType = r.weighted([55, 28, 9, 8])
        cityIndex = r.weighted(FixtureMarket.cities.map { $0.name == "San Diego" ? 12 : 3 })
        let level = Double(FixtureMarket.cities[cityIndex].priceLevel) * [1.0, 0.6, 1.5, 0.35][propertyType]
        var price = Int(level * (0.55 + r.unit() * 1.3))
        price = max(price / 1000 * 1000, 49_000)
        if r.chance(0.25) { price -= 100 }
        listPrice = price
        origPrice = r.chance(0.6) ? price : (price + price / 100 * r.between(1, 12)) / 1000 * 1000
        soldPrice = (price + price / 100 * r.between(-6, 5)) / 500 * 500
        priceStyle = r.weighted([45, 40, 15])
        modifiedStyle = r.chance(0.7) ? 0 : 1
        let dumpDay = FixtureClock.floorDiv(dumpLocal, 86400)
        if let night {
            var m = dumpLocal + (night - 1) * 86400 + r.between(60, 86_000)
            if FixtureClock.nearSwitch(m) { m += 7200 }
            status = .active
            modified = m
            listDay = FixtureClock.floorDiv(m, 86400) - r.below(2)
            soldDay = listDay
        } else {
            listDay = dumpDay - r.between(4, 420)
            let low = max(listDay * 86400 + 9 * 3600, dumpLocal - 365 * 86400)
            let high = (dumpDay - 3) * 86400
            var m = low + r.below(max(high - low, 1))
            if FixtureClock.nearSwitch(m) { m += 7200 }
            modified = m
            let modifiedDay = FixtureClock.floorDiv(m, 86400)
            soldDay = listDay + min(r.between(7, 90), max(modifiedDay - listDay, 0))
        }
    }

    static func padded(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    var statusWord: String {
        switch status {
        case .active: return terseStatus ? "A" : "Active"
        case .pending: return terseStatus ? "P" : "Pending"
        case .sold: return terseStatus ? "S" : "Sold"
        case .expired: return "Expired"
        case .withdrawn: return "Withdrawn"
        }
    }

    /// The list price as the feed spells it.
    var listPriceText: String {
        badPrice ?? FixtureListing.priceText(listPrice, style: priceStyle)
    }

    /// The list price in `Value.decimal` canonical form.
    var listPriceValue: String { String(listPrice) }

    var modifiedText: String {
        modifiedStyle == 0 ? FixtureClock.isoLocal(modified) : FixtureClock.usLocal(modified)
    }

    static func priceText(_ price: Int, style: Int) -> String {
        var rec = FixtureRecord()
        appendPrice(price, style: style, to: &rec)
        return String(decoding: rec.bytes, as: UTF8.self)
    }

    static func appendPrice(_ price: Int, style: Int, to rec: inout FixtureRecord) {
        switch style {
        case 0:
            rec.append("$")
            rec.appendGrouped(price)
        case 1:
            rec.appendInt(price)
        default:
            rec.appendInt(price)
            rec.append(".00")
        }
    }
}
