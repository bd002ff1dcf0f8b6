import Foundation

/// One row of `listing_history`: a price or status change, a withdrawal or a return, with the run that made it.
package struct ListingChange: Sendable, Equatable {
    package var id: Int64
    package var runID: Int64
    /// The run's pipeline; nil when the run was pruned from the ledger (the change itself is never pruned).
    package var pipeline: String?
    package var recordedAt: Date
    /// The incoming record's modification timestamp (nil for a withdrawal).
    package var modificationTimestamp: Date?
    /// `price`, `status`, `price+status`, `withdrawn` or `returned`.
    package var change: String
    package var oldPrice: String?
    package var newPrice: String?
    package var oldStatus: String?
    package var newStatus: String?

    /// The SELECT list that `init(_:)` reads from `listing_history h LEFT JOIN ingest_runs r`.
    static let columns = "h.id, h.run_id, r.pipeline, extract(epoch FROM h.recorded_at) AS recorded_at, "
        + "extract(epoch FROM h.modification_timestamp) AS modification_timestamp, h.change, "
        + "h.old_price::text AS old_price, h.new_price::text AS new_price, h.old_status, h.new_status"

    init(_ row: ResultRow) throws {
        id = try row.count("id")
        runID = try row.count("run_id")
        pipeline = try row.text("pipeline")
        guard let recorded = try row.date("recorded_at") else { throw LoadError("ledger column recorded_at is NULL") }
        recordedAt = recorded
        modificationTimestamp = try row.date("modification_timestamp")
        change = try row.string("change")
        oldPrice = try row.text("old_price")
        newPrice = try row.text("new_price")
        oldStatus = try row.text("old_status")
        newStatus = try row.text("new_status")
    }
}
