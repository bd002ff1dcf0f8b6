/// What a run did to one of the tables besides `listings` and `agents` (`offices`, `media`, `open_houses`).
package struct RowCounts: Sendable, Hashable {
    package var inserted = 0
    package var updated = 0
    package var unchanged = 0
    /// A resource feed's rows older than the stored ones: left as they were.
    package var stale = 0
    /// Rows a listing's winning copy no longer lists, or (a resource feed's full dump) the dump no longer carries.
    package var deleted = 0

    package init(inserted: Int = 0, updated: Int = 0, unchanged: Int = 0, stale: Int = 0, deleted: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
        self.stale = stale
        self.deleted = deleted
    }

    /// The counts by name, in this order: `inserted`, `updated`, `unchanged`, `stale`, `deleted`.
    package var named: [(name: String, value: Int)] {
        [("inserted", inserted), ("updated", updated), ("unchanged", unchanged), ("stale", stale),
         ("deleted", deleted)]
    }

    /// `inserted 3, updated 1, unchanged 12, deleted 2` (zero stale and deleted counts left out).
    package var summary: String {
        named.filter { $0.value > 0 || ["inserted", "updated", "unchanged"].contains($0.name) }
            .map { "\($0.name) \($0.value)" }.joined(separator: ", ")
    }
}
