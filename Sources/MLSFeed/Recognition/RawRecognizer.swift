import Foundation

/// What the parse and normalize stages need to fingerprint records (`RawHash`) and to recognise the unchanged
/// copies of listings the database already holds (`StoredListings`), which then skip normalizing.
package struct RawRecognizer: Sendable {
    package let hash: RawHash
    /// Read from the database while the parse begins; `stored` waits for it (read it once per batch).
    package let pendingStored: BlockingFuture<StoredListings>
    /// The source keys a recognised record still needs: its key's and those of the agents and offices read from its
    /// own keys (they are merged by the last record naming them, so they are read from every listing, changed or
    /// not; a recognised listing's media and open houses are left as they are).
    package let neededKeys: Set<String>

    /// A recognizer for a listing mapping; nil for other entities (only listings keep their raw fingerprint).
    package init?(mapping: Mapping, zone: TimeZone?, stored: BlockingFuture<StoredListings>) {
        guard mapping.entity == .listing else { return nil }
        hash = RawHash(mapping: mapping, zone: zone)
        self.pendingStored = stored
        let keyFields = mapping.fields.filter { $0.name == mapping.entity.keyColumn }
        let peers = mapping.recordEntries.filter { !$0.entry.entity.belongsToListing }.flatMap(\.entry.fields)
        neededKeys = Set((keyFields + peers).flatMap(\.sources))
    }

    /// The stored listings, once read (blocks until then).
    package var stored: StoredListings { pendingStored.value }
}
