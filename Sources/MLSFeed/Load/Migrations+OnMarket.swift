extension Migrations {
    /// Migration 12: an index of the on-market listings holding what a run reads of all of them.
    ///
    /// Every database run of a listing feed reads the source's on-market listings twice: their raw fingerprints
    /// and modification times at the start (the stored set the recognizer compares records with), and, in a full
    /// run that misses some, their MLS numbers for the anti-join that finds withdrawn ones. Both read a column or
    /// three of every on-market row, and without this index both scanned the whole table: at 1M listings 2 GB for
    /// 16 bytes a row. The index holds those columns (an index-only scan reads 47 MB), is partial on the on-market
    /// rows the two read, and is keyed by source alone: a new row's entry goes after the entries of its source in
    /// heap order, so a night's changed and new rows add their entries at a few pages instead of one random leaf
    /// each.
    static let onMarket = """
        CREATE INDEX listings_on_market_idx ON listings (source)
            INCLUDE (listing_id, raw_hash, modification_timestamp)
            WHERE off_market_at IS NULL;
        """
}
