/// What a committed load did: listing counts, plus the agents, offices, media and open houses merged alongside them.
public struct LoadResult: Sendable, Hashable {
    public var runID: Int64
    /// Listings new to the source.
    public var inserted = 0
    /// Listings rewritten because their content changed (including listings back from off-market).
    public var updated = 0
    /// Listings whose content was identical: not written at all.
    public var unchanged = 0
    /// Of the unchanged, records recognised by their raw fingerprint before normalizing: sent as keys only.
    package var recognized = 0
    /// Listings whose stored row is newer than the incoming one: left as they were.
    public var stale = 0
    /// Listings a full dump no longer carries, marked off-market.
    public var withdrawn = 0
    /// Listing records dropped because a newer (or later) record had the same MLS number in this run.
    package var duplicates = 0
    /// Of the inserted and updated, listings written by the merges during the parse (`load.merge_while_parsing`).
    package var mergedWhileParsing = 0
    /// Listings those merges wrote and the end put back, to merge them again: staged more than once.
    package var mergedAgainAtEnd = 0
    public var agentsInserted = 0
    public var agentsUpdated = 0
    public var agentsUnchanged = 0
    /// What the run did to `offices`, `media` and `open_houses` (only the tables it wrote rows of).
    package var rows: [Entity: RowCounts] = [:]
    /// The dump's as-of time (UTC, canonical): its header time, else its newest modification timestamp, else the
    /// time it was loaded.
    package var asOf: String?
    /// A full run that looked for listings to withdraw (complete, and not older than the last dump that did).
    package var reconciled = false
    /// The replication high-water mark after the run (the newest modification timestamp it loaded).
    package var replicationMark: String?
    /// What the load decided and the summary should say (an incomplete dump upserted only, an older dump
    /// withdrawing nothing).
    package var notes: [String] = []
    /// A plan's examples and price and status changes (nil for a real run).
    package var plan: LoadPlan?

    package init(runID: Int64) {
        self.runID = runID
    }
}
