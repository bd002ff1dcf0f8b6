/// What a run counted, as the ledger keeps it.
package struct RunCounts: Sendable, Equatable {
    package var read: Int64 = 0
    package var rejected: Int64 = 0
    package var duplicates: Int64 = 0
    package var inserted: Int64 = 0
    package var updated: Int64 = 0
    package var unchanged: Int64 = 0
    package var stale: Int64 = 0
    package var withdrawn: Int64 = 0
    package var agentsInserted: Int64 = 0
    package var agentsUpdated: Int64 = 0
    package var agentsUnchanged: Int64 = 0
    /// Control characters removed from values.
    package var removedCharacters: Int64 = 0

    package init() {}

    /// The counts by their ledger column names, in the ledger's order.
    package var named: [(name: String, value: Int64)] {
        [("read", read), ("rejected", rejected), ("duplicates", duplicates), ("inserted", inserted),
         ("updated", updated), ("unchanged", unchanged), ("stale", stale), ("withdrawn", withdrawn),
         ("agents_inserted", agentsInserted), ("agents_updated", agentsUpdated),
         ("agents_unchanged", agentsUnchanged), ("removed_characters", removedCharacters)]
    }

    /// The columns of `ingest_runs` these counts come from, for a SELECT list.
    static let columns = "read, rejected, duplicates, inserted, updated, unchanged, stale, withdrawn, "
        + "agents_inserted, agents_updated, agents_unchanged, removed_characters"

    init(_ row: ResultRow) throws {
        read = try row.count("read")
        rejected = try row.count("rejected")
        duplicates = try row.count("duplicates")
        inserted = try row.count("inserted")
        updated = try row.count("updated")
        unchanged = try row.count("unchanged")
        stale = try row.count("stale")
        withdrawn = try row.count("withdrawn")
        agentsInserted = try row.count("agents_inserted")
        agentsUpdated = try row.count("agents_updated")
        agentsUnchanged = try row.count("agents_unchanged")
        removedCharacters = try row.count("removed_characters")
    }
}
