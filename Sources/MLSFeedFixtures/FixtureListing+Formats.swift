import MLSFeed

/// How each format spells a listing's core facts, and what a loader makes of them (the truth's values).
extension FixtureListing {
    /// The status as the data model stores it: what a mapping makes of the word `format` writes.
    func standardStatus(_ format: FixtureOptions.Format) -> String {
        switch status {
        case .active: return "Active"
        case .pending: return format == .resoJSON && terseStatus ? "ActiveUnderContract" : "Pending"
        case .sold: return "Closed"
        case .expired: return "Expired"
        case .withdrawn: return "Withdrawn"
        }
    }

    /// RESO `PropertyType` and `PropertySubType` (OData member names).
    var resoPropertyType: (type: String, subType: String?) {
        [("Residential", "SingleFamilyResidence"), ("Residential", "Condominium"), ("ResidentialIncome", "Quadruplex"),
         ("Land", nil)][propertyType]
    }

    /// Syndication 2012-03 `PropertyType` and `PropertySubType`.
    var syndicationPropertyType: (type: String, subType: String?) {
        [("Residential", "Single Family Detached"), ("Residential", "Condominium"), ("Multi-Family", "Apartment"),
         ("Lots And Land", nil)][propertyType]
    }

    /// The listing's own choices for typed formats, from a stream of their own (so no other field moves):
    /// which `ModificationTimestamp` spelling `reso-json` uses, and the milliseconds of the modification.
    private var timestampChoice: (style: Int, millis: Int) {
        var r = FixtureRandom(seed, UInt64(index), 100 + UInt64(FixtureField.modified.rawValue))
        return (r.weighted([45, 25, 15, 15]), r.below(1000))
    }

    /// `ModificationTimestamp` as `format` writes it. `reso-json`: UTC with `Z`, with 3 or 7 fraction digits, or
    /// zone-less local time; `syndication`: local time with milliseconds and offset; the others: naive local.
    func writtenModified(_ format: FixtureOptions.Format) -> String {
        let (style, millis) = timestampChoice
        switch format {
        case .triples, .retsCompact, .xml:
            return modifiedText
        case .resoJSON:
            switch style {
            case 0: return FixtureClock.utc(modified)
            case 1: return FixtureClock.utc(modified, millis: millis, digits: 3)
            case 2: return FixtureClock.utc(modified, millis: millis, digits: 7)
            default: return FixtureClock.isoLocal(modified)
            }
        case .syndication:
            return FixtureClock.withOffset(modified, millis: millis)
        }
    }

    /// The UTC instant a loader stores for `writtenModified(format)`: `yyyy-MM-ddTHH:mm:ss[.SSS]Z`.
    func modifiedUTC(_ format: FixtureOptions.Format) -> String {
        let (style, millis) = timestampChoice
        switch format {
        case .resoJSON where style == 1 || style == 2, .syndication:
            return FixtureClock.utc(modified, millis: millis, digits: 3)
        default:
            return FixtureClock.utc(modified)
        }
    }

    /// The list price as `format` writes it (for JSON: the number's text, or the string's content), and
    /// whether JSON writes it as a string.
    func writtenListPrice(_ format: FixtureOptions.Format) -> (text: String, quoted: Bool) {
        if let badPrice { return (badPrice, true) }
        switch format {
        case .triples, .retsCompact, .xml: return (listPriceText, false)
        case .resoJSON, .syndication: return (Self.typedPriceText(listPrice, style: priceStyle), priceStyle == 2)
        }
    }

    /// A price in a typed format: `549000` (style 0), `549000.00` (style 1 as a JSON number, 2 as a string).
    static func typedPriceText(_ price: Int, style: Int) -> String {
        style == 0 ? String(price) : String(price) + ".00"
    }
}
