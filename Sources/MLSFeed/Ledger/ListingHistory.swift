import Foundation

/// One listing of one source as it stands, with every price and status change, withdrawal and return recorded
/// for it (`listing_history`), oldest first.
package struct ListingHistory: Sendable {
    package var source: String
    package var listingID: String
    package var standardStatus: String?
    /// `numeric(14,2)` as PostgreSQL prints it (`549000.00`).
    package var listPrice: String?
    package var modificationTimestamp: Date?
    /// When a full dump withdrew it; nil while it is on the market.
    package var offMarketAt: Date?
    package var firstSeenRun: Int64
    package var lastChangedRun: Int64
    package var changes: [ListingChange]

    /// The SELECT list that `init(_:changes:)` reads from `listings`.
    static let columns = "source, listing_id, standard_status, list_price::text AS list_price, "
        + "extract(epoch FROM modification_timestamp) AS modification_timestamp, "
        + "extract(epoch FROM off_market_at) AS off_market_at, first_seen_run, last_changed_run"

    init(_ row: ResultRow, changes: [ListingChange]) throws {
        source = try row.string("source")
        listingID = try row.string("listing_id")
        standardStatus = try row.text("standard_status")
        listPrice = try row.text("list_price")
        modificationTimestamp = try row.date("modification_timestamp")
        offMarketAt = try row.date("off_market_at")
        firstSeenRun = try row.count("first_seen_run")
        lastChangedRun = try row.count("last_changed_run")
        self.changes = changes
    }
}
