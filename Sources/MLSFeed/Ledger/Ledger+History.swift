extension Ledger {
    /// The listing `listingID` of every source (or of `source`), each with its changes oldest first; empty when
    /// no source has it.
    package func history(listingID: String, source: String? = nil) throws -> [ListingHistory] {
        let listings = try connection.execute("""
            SELECT \(ListingHistory.columns) FROM listings
            WHERE listing_id = $1 AND ($2::text IS NULL OR source = $2)
            ORDER BY source
            """, [listingID, source])
        return try ResultRow.all(listings).map { row in
            let changes = try connection.execute(Self.changes, [try row.string("source"), listingID])
            return try ListingHistory(row, changes: ResultRow.all(changes).map(ListingChange.init))
        }
    }

    /// The changes of one listing (`$1` source, `$2` MLS number), oldest first, each with its run's pipeline (a
    /// run of the same source: the join names it, so that it stays within one source's rows, see docs/scaling.md).
    static let changes = """
        SELECT \(ListingChange.columns)
        FROM listing_history h LEFT JOIN ingest_runs r ON r.source = h.source AND r.id = h.run_id
        WHERE h.source = $1 AND h.listing_id = $2
        ORDER BY h.id
        """
}
