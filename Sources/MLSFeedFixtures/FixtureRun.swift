import MLSFeed

/// One generation pass: walks the market in order, writes every record, and keeps the truth as it goes.
struct FixtureRun {
    let market: FixtureOptions
    let plan: FixturePlan
    let night: Int
    let deltaSeed: UInt64?
    private(set) var truth: FixtureTruth
    private(set) var changedNumbers: [String] = []
    private(set) var newNumbers: [String] = []
    private(set) var goneNumbers: [String] = []

    private var record = FixtureRecord()
    private var ordinal = 0
    /// Second copies waiting to be written: (after which market index, which listing), in `due` order.
    private var pending: [(due: Int, index: Int)] = []
    /// First copies of duplicated listings already written: their ordinal and facts.
    private var firstCopies: [Int: (ordinal: Int, listing: FixtureListing)] = [:]

    init(market: FixtureOptions, plan: FixturePlan, night: Int, deltaSeed: UInt64?) {
        self.market = market
        self.plan = plan
        self.night = night
        self.deltaSeed = deltaSeed
        truth = FixtureTruth(
            format: market.format, shape: market.shape, source: market.source,
            generated: FixtureClock.withOffset(FixtureGenerator.baseDumpLocal + night * 86400),
            seed: market.seed, listings: market.listings, dirt: market.dirt, night: night, deltaSeed: deltaSeed,
            records: 0, uniqueValid: 0, rejects: 0, duplicates: 0, bytes: 0, rejected: [], duplicated: [],
            delta: nil)
    }

    mutating func write() throws {
        let writer = try FixtureWriter(path: market.output, format: market.format, shape: market.shape,
                                       pageSize: market.format == .resoJSON ? market.pageSize : nil,
                                       jsonLines: market.format == .resoJSON && market.jsonLines)
        try writer.begin(source: market.source, generated: truth.generated, records: plan.records)
        let n = plan.listings
        let maxDelay = min(max(n / 20, 1), 2000)
        for index in 0..<(n + plan.newListings) {
            if index < n && plan.gone.contains(index) {
                goneNumbers.append(FixtureListing(seed: market.seed, index: index, dumpLocal: dump).mlsNumber)
            } else {
                var listing = FixtureListing(seed: market.seed, index: index, dumpLocal: dump,
                                             newOnNight: index >= n ? night : nil)
                if index >= n { newNumbers.append(listing.mlsNumber) }
                if plan.changed.contains(index) {
                    change(&listing)
                    changedNumbers.append(listing.mlsNumber)
                }
                try writeFirst(listing, dirt: plan.dirt[index], maxDelay: maxDelay, writer: writer)
            }
            while let next = pending.first, next.due <= index {
                pending.removeFirst()
                try writeCopy(next.index, writer: writer)
            }
        }
        while let next = pending.first {
            pending.removeFirst()
            try writeCopy(next.index, writer: writer)
        }
        try writer.end()
        try writer.close()
        truth.records = ordinal
        truth.rejects = truth.rejected.count
        truth.duplicates = truth.duplicated.count
        truth.uniqueValid = ordinal - truth.rejects - truth.duplicates
        truth.bytes = writer.size
        if writer.pageSize != nil {
            truth.pageSize = writer.pageSize
            truth.pages = writer.page
        }
        if writer.jsonLines { truth.jsonLines = true }
    }

    private var dump: Int { FixtureGenerator.baseDumpLocal }

    private mutating func writeFirst(_ listing: FixtureListing, dirt: FixturePlan.Dirt?, maxDelay: Int,
                                     writer: FixtureWriter) throws {
        var listing = listing
        var mismatch: Bool?
        switch dirt {
        case .emptyMLSNumber?:
            listing.emptyMLSNumber = true
            reject(nil, "empty_mls_number", "")
        case .badPrice(let variant)?:
            let bad = FixtureListing.badPrices[variant]
            listing.badPrice = bad
            reject(listing.mlsNumber, "bad_list_price", bad)
        case .countMismatch(let extra)?:
            mismatch = extra
            let keys = FixtureField.count
            reject(listing.mlsNumber, "count_mismatch", "values \(extra ? keys + 1 : keys - 1), keys \(keys)")
        case .duplicate?:
            firstCopies[listing.index] = (ordinal, listing)
            var r = FixtureRandom(market.seed, UInt64(listing.index), 3)
            let due = listing.index + r.between(1, maxDelay)
            let at = pending.firstIndex { $0.due > due } ?? pending.count
            pending.insert((due, listing.index), at: at)
        case nil:
            break
        }
        listing.write(into: &record)
        if let extra = mismatch {
            if extra { record.splitField = .publicRemarks } else { record.skippedField = .unit }
        }
        try writer.write(record)
        ordinal += 1
    }

    private mutating func reject(_ mls: String?, _ reason: String, _ detail: String) {
        truth.rejected.append(FixtureTruth.Reject(ordinal: ordinal, mlsNumber: mls, reason: reason, detail: detail))
    }

    /// The second copy of a duplicated listing: newer, older or with the same timestamp, at another price.
    private mutating func writeCopy(_ index: Int, writer: FixtureWriter) throws {
        guard let (firstOrdinal, first) = firstCopies.removeValue(forKey: index),
              case .duplicate(let variant)? = plan.dirt[index] else { return }
        var copy = first
        var r = FixtureRandom(market.seed, UInt64(index), 6)
        let step = max(first.listPrice / 100 * r.between(1, 5) / 1000 * 1000, 1000)
        switch variant {
        case 0:
            copy.modified += r.between(3600, 48 * 3600)
            if FixtureClock.nearSwitch(copy.modified) { copy.modified += 7200 }
            copy.listPrice -= step
        case 1:
            copy.modified -= r.between(3600, 72 * 3600)
            if FixtureClock.nearSwitch(copy.modified) { copy.modified -= 7200 }
            copy.listPrice += step
        default:
            copy.listPrice -= 1000
        }
        copy.write(into: &record)
        try writer.write(record)
        let winner = variant == 1 ? first : copy
        let format = market.format
        truth.duplicated.append(FixtureTruth.Duplicate(
            mlsNumber: first.mlsNumber, ordinals: [firstOrdinal, ordinal],
            kind: ["newer", "older", "same_timestamp"][variant], winnerOrdinal: variant == 1 ? firstOrdinal : ordinal,
            winnerModified: winner.writtenModified(format), winnerModifiedUTC: winner.modifiedUTC(format),
            winnerListPrice: winner.writtenListPrice(format).text, winnerListPriceValue: winner.listPriceValue,
            winnerStandardStatus: winner.standardStatus(format)))
        ordinal += 1
    }

    /// The night's change of a listing: a price cut and/or a status step, always with a later `modified`.
    private func change(_ listing: inout FixtureListing) {
        var r = FixtureRandom(deltaSeed ?? 0, UInt64(listing.index), 0xC4A6)
        let what = r.weighted([50, 25, 25])
        var m = dump + (night - 1) * 86400 + r.between(60, 86_000)
        if FixtureClock.nearSwitch(m) { m += 7200 }
        listing.modified = m
        var statusChanged = false
        if what != 0 {
            statusChanged = true
            switch listing.status {
            case .active: listing.status = .pending
            case .pending:
                listing.status = .sold
                listing.soldDay = FixtureClock.floorDiv(m, 86400)
            case .expired, .withdrawn: listing.status = .active
            case .sold: statusChanged = false
            }
        }
        if what != 1 || !statusChanged {
            let cut = max(listing.listPrice / 100 * r.between(1, 7) / 1000 * 1000, 1000)
            listing.listPrice = max(listing.listPrice - cut, 10_000)
        }
    }
}
