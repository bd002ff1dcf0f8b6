/// A record recognised as an unchanged copy of a stored listing: it needs no normalizing, only its key.
package struct StoredCopy: Sendable, Hashable {
    /// The stored listing's modification time, microseconds since the epoch (timestamptz keeps microseconds).
    package var epochMicroseconds: Int64?
    /// Where the stored listing sits in the run's stored set (`StoredListings.index(of:)`): one place per listing.
    package var place: Int

    package init(epochMicroseconds: Int64?, place: Int) {
        self.epochMicroseconds = epochMicroseconds
        self.place = place
    }
}
