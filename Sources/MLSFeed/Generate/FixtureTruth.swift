/// What a generated feed contains, written beside it as JSON: counts, expected rejects, duplicates and winners.
public struct FixtureTruth: Sendable, Codable, Equatable {
    /// A record the shipped mapping must reject.
    public struct Reject: Sendable, Codable, Equatable {
        /// 0-based record ordinal in feed order.
        public var ordinal: Int
        /// The listing's MLS number (`nil` when the reason is an empty MLS number).
        public var mlsNumber: String?
        /// `empty_mls_number`, `bad_list_price` or `count_mismatch`.
        public var reason: String
        /// The bad raw price, or `values N, keys M`.
        public var detail: String

        enum CodingKeys: String, CodingKey {
            case ordinal, mlsNumber = "mls_number", reason, detail
        }
    }

    /// An MLS number written twice, and which copy must win dedupe.
    public struct Duplicate: Sendable, Codable, Equatable {
        public var mlsNumber: String
        /// Ordinals of both copies, in feed order.
        public var ordinals: [Int]
        /// `newer` (the later copy has a later `modified`), `older` (an earlier one), `same_timestamp`.
        public var kind: String
        public var winnerOrdinal: Int
        /// The winner's `modified` as written, and as the UTC timestamp the pipeline stores.
        public var winnerModified: String
        public var winnerModifiedUTC: String
        /// The winner's list price as written, and as a canonical decimal.
        public var winnerListPrice: String
        public var winnerListPriceValue: String
        /// The winner's status as the data model stores it (`Active`, `ActiveUnderContract`, `Pending`, `Closed`,
        /// `Expired`, `Withdrawn`).
        public var winnerStandardStatus: String?

        enum CodingKeys: String, CodingKey {
            case mlsNumber = "mls_number", ordinals, kind, winnerOrdinal = "winner_ordinal"
            case winnerModified = "winner_modified", winnerModifiedUTC = "winner_modified_utc"
            case winnerListPrice = "winner_list_price", winnerListPriceValue = "winner_list_price_value"
            case winnerStandardStatus = "winner_standard_status"
        }
    }

    /// What changed since the base dump (delta feeds only).
    public struct Delta: Sendable, Codable, Equatable {
        /// The base feed's path as given to `--delta-of`.
        public var base: String
        /// Listings whose price and/or status changed, with a later `modified`.
        public var changed: [String]
        /// Listings not in the base.
        public var new: [String]
        /// Listings of the base that are gone: a `full` run must mark them off-market (withdrawn).
        public var withdrawn: [String]
    }

    public var format: FixtureOptions.Format
    public var shape: FixtureOptions.Shape
    public var source: String
    /// The feed's `generated` attribute.
    public var generated: String
    /// The market's seed and size (a delta keeps its base's).
    public var seed: UInt64
    public var listings: Int
    public var dirt: FixtureOptions.DirtRates
    /// 0 for a base dump, 1 for the next night's delta.
    public var night: Int
    /// The seed of the night's changes (deltas only).
    public var deltaSeed: UInt64?
    /// Records written (DATA rows, `listing` elements).
    public var records: Int
    /// Distinct MLS numbers among records that pass validation: the rows a first load leaves in `listings`.
    public var uniqueValid: Int
    /// Records that must be rejected.
    public var rejects: Int
    /// Valid records superseded by another copy of the same MLS number.
    public var duplicates: Int
    /// Bytes written.
    public var bytes: Int
    public var rejected: [Reject]
    public var duplicated: [Duplicate]
    public var delta: Delta?
    /// `reso-json` written as pages: records per page, and the page files written (`page-0001.json` ... in the
    /// output directory; each but the last names the next in `@odata.nextLink`).
    public var pageSize: Int?
    public var pages: Int?
    /// `reso-json` written as JSON Lines.
    public var jsonLines: Bool?

    enum CodingKeys: String, CodingKey {
        case format, shape, source, generated, seed, listings, dirt, night, deltaSeed = "delta_seed", records
        case uniqueValid = "unique_valid", rejects, duplicates, bytes, rejected, duplicated, delta
        case pageSize = "page_size", pages, jsonLines = "jsonl"
    }
}
