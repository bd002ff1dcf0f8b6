import MLSFeed

/// What a generated feed contains, written beside it as JSON: counts, expected rejects, duplicates and winners.
package struct FixtureTruth: Sendable, Codable, Equatable {
    /// A record the shipped mapping must reject.
    package struct Reject: Sendable, Codable, Equatable {
        /// 0-based record ordinal in feed order.
        package var ordinal: Int
        /// The listing's MLS number (`nil` when the reason is an empty MLS number).
        package var mlsNumber: String?
        /// `empty_mls_number`, `bad_list_price` or `count_mismatch`.
        package var reason: String
        /// The bad raw price, or `values N, keys M`.
        package var detail: String

        enum CodingKeys: String, CodingKey {
            case ordinal, mlsNumber = "mls_number", reason, detail
        }
    }

    /// An MLS number written twice, and which copy must win dedupe.
    package struct Duplicate: Sendable, Codable, Equatable {
        package var mlsNumber: String
        /// Ordinals of both copies, in feed order.
        package var ordinals: [Int]
        /// `newer` (the later copy has a later `modified`), `older` (an earlier one), `same_timestamp`.
        package var kind: String
        package var winnerOrdinal: Int
        /// The winner's `modified` as written, and as the UTC timestamp the pipeline stores.
        package var winnerModified: String
        package var winnerModifiedUTC: String
        /// The winner's list price as written, and as a canonical decimal.
        package var winnerListPrice: String
        package var winnerListPriceValue: String
        /// The winner's status as the data model stores it (`Active`, `ActiveUnderContract`, `Pending`, `Closed`,
        /// `Expired`, `Withdrawn`).
        package var winnerStandardStatus: String?

        enum CodingKeys: String, CodingKey {
            case mlsNumber = "mls_number", ordinals, kind, winnerOrdinal = "winner_ordinal"
            case winnerModified = "winner_modified", winnerModifiedUTC = "winner_modified_utc"
            case winnerListPrice = "winner_list_price", winnerListPriceValue = "winner_list_price_value"
            case winnerStandardStatus = "winner_standard_status"
        }
    }

    /// What changed since the base dump (delta feeds only).
    package struct Delta: Sendable, Codable, Equatable {
        /// The base feed's path as given to `--delta-of`.
        package var base: String
        /// Listings whose price and/or status changed, with a later `modified`.
        package var changed: [String]
        /// Listings not in the base.
        package var new: [String]
        /// Listings of the base that are gone: a `full` run must mark them off-market (withdrawn).
        package var withdrawn: [String]
    }

    package var format: FixtureOptions.Format
    package var shape: FixtureOptions.Shape
    package var source: String
    /// The feed's `generated` attribute.
    package var generated: String
    /// The market's seed and size (a delta keeps its base's).
    package var seed: UInt64
    package var listings: Int
    package var dirt: FixtureOptions.DirtRates
    /// 0 for a base dump, 1 for the next night's delta.
    package var night: Int
    /// The seed of the night's changes (deltas only).
    package var deltaSeed: UInt64?
    /// Records written (DATA rows, `listing` elements).
    package var records: Int
    /// Distinct MLS numbers among records that pass validation: the rows a first load leaves in `listings`.
    package var uniqueValid: Int
    /// Records that must be rejected.
    package var rejects: Int
    /// Valid records superseded by another copy of the same MLS number.
    package var duplicates: Int
    /// Bytes written.
    package var bytes: Int
    package var rejected: [Reject]
    package var duplicated: [Duplicate]
    package var delta: Delta?
    /// `reso-json` written as pages: records per page, and the page files written (`page-0001.json` ... in the
    /// output directory; each but the last names the next in `@odata.nextLink`).
    package var pageSize: Int?
    package var pages: Int?
    /// `reso-json` written as JSON Lines.
    package var jsonLines: Bool?

    enum CodingKeys: String, CodingKey {
        case format, shape, source, generated, seed, listings, dirt, night, deltaSeed = "delta_seed", records
        case uniqueValid = "unique_valid", rejects, duplicates, bytes, rejected, duplicated, delta
        case pageSize = "page_size", pages, jsonLines = "jsonl"
    }
}
