/// A record recognised as an unchanged copy of a stored listing: it needs no normalizing, only its key.
package struct StoredCopy: Sendable, Hashable {
    /// The stored listing's modification time, microseconds since the epoch (timestamptz keeps microseconds).
    package var epochMicroseconds: Int64?

    package init(epochMicroseconds: Int64?) {
        self.epochMicroseconds = epochMicroseconds
    }
}
