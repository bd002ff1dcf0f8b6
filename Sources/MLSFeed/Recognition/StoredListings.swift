/// The on-market listings a source already holds, by the raw fingerprint of the record that made them
/// (`RawHash`), with their modification times: a record found here is an unchanged copy of a stored listing.
///
/// Read once per run (`LoadSession.storedListings`). A sorted array of 16-byte entries and a table of where each
/// fingerprint prefix begins: 18 MB for a million listings (16 + 2). Two different records collide in 64 bits with
/// a chance of about 1 in 3·10⁷ per million listings.
package struct StoredListings: Sendable {
    struct Entry: Sendable {
        var hash: UInt64
        /// Microseconds since the epoch; `Int64.min` when the listing has no modification timestamp.
        var microseconds: Int64
    }

    private var entries: [Entry] = []
    /// Where the entries whose hash starts with each `prefixBits`-bit prefix begin (`prefixes + 1` bounds): a lookup
    /// then reads two bounds and one or two entries, a cache line each, instead of searching the whole array
    /// (hashes are uniform, so buckets are even). At 1M a fixed 16-bit prefix left 15 entries a bucket, and the
    /// lookup's misses were 4.5% of a `--force` reload's CPU samples.
    private var starts: [UInt32] = []
    private var prefixBits = 8

    /// The prefix length that leaves one or two entries a bucket on average (at least 8 bits, at most 24).
    static func prefixBits(for count: Int) -> Int {
        var bits = 8
        while bits < 24 && 1 << (bits + 1) <= count { bits += 1 }
        return bits
    }

    package init() {}

    /// A set of `(raw fingerprint, modification time in epoch microseconds or nil)` pairs.
    package init<S: Sequence>(_ pairs: S) where S.Element == (UInt64, Int64?) {
        var builder = Builder()
        for (hash, micros) in pairs { builder.append(hash, microseconds: micros) }
        self = builder.build()
    }

    /// On-market listings when the set was read: those with a fingerprint (`count`) and those without one; nil
    /// for `unavailable`.
    package private(set) var onMarket: Int? = 0

    /// An empty set standing in for one that could not be read: nothing is recognised, nothing is counted.
    package static var unavailable: StoredListings {
        var set = StoredListings()
        set.onMarket = nil
        return set
    }

    package var count: Int { entries.count }
    package var isEmpty: Bool { entries.isEmpty }

    /// Whether two stored listings share a fingerprint (two identical records, or a 64-bit collision): a copy
    /// then names only the first one's place, so a place no copy named does not mean a listing the dump lacks.
    package private(set) var repeatsHash = false

    /// The fingerprint of the stored listing at `place` (in `0..<count`).
    package func hash(at place: Int) -> UInt64 { entries[place].hash }

    /// The stored copy a record with this raw fingerprint would repeat, if any.
    package func lookup(_ hash: UInt64) -> StoredCopy? {
        guard let index = index(of: hash) else { return nil }
        let micros = entries[index].microseconds
        return StoredCopy(epochMicroseconds: micros == .min ? nil : micros, place: index)
    }

    /// `lookup` of each fingerprint, in one pass: with no other work between them, the lookups' cache misses
    /// overlap (at 1M, one lookup at a time between records' splits was 4% of a `--force` reload's CPU samples).
    package func lookup(all hashes: [UInt64]) -> [StoredCopy?] {
        hashes.map { lookup($0) }
    }

    /// The place (in `0..<count`) of the stored listing with this raw fingerprint, if any: one place per listing.
    package func index(of hash: UInt64) -> Int? {
        guard !entries.isEmpty else { return nil }
        let prefix = Int(hash >> UInt64(64 - prefixBits))
        var low = Int(starts[prefix])
        var high = Int(starts[prefix + 1])
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].hash < hash { low = mid + 1 } else { high = mid }
        }
        guard low < entries.count, entries[low].hash == hash else { return nil }
        return low
    }

    /// Collects entries (of a known count, when given) and sorts them once.
    package struct Builder {
        private var entries: [Entry] = []
        private var withoutFingerprint = 0

        package init(expectedCount: Int = 0) {
            entries.reserveCapacity(expectedCount)
        }

        package mutating func append(_ hash: UInt64, microseconds: Int64?) {
            entries.append(Entry(hash: hash, microseconds: microseconds ?? .min))
        }

        /// Counts an on-market listing that has no fingerprint (it is never recognised).
        package mutating func countWithoutFingerprint() {
            withoutFingerprint += 1
        }

        package consuming func build() -> StoredListings {
            var set = StoredListings()
            set.onMarket = entries.count + withoutFingerprint
            entries.sort { $0.hash < $1.hash }
            let bits = StoredListings.prefixBits(for: entries.count)
            let buckets = 1 << bits
            var starts = [UInt32](repeating: 0, count: buckets + 1)
            // One pass over the sorted entries counts the buckets and finds a repeated fingerprint (neighbours).
            for index in entries.indices {
                let hash = entries[index].hash
                starts[Int(hash >> UInt64(64 - bits)) + 1] += 1
                if index > 0 && entries[index - 1].hash == hash { set.repeatsHash = true }
            }
            for i in 0..<buckets { starts[i + 1] += starts[i] }
            set.entries = entries
            set.starts = starts
            set.prefixBits = bits
            return set
        }
    }
}

extension StoredCopy {
    /// The modification timestamp in the canonical form `Value.timestamp` holds.
    package var modificationTimestamp: String? {
        epochMicroseconds.map { micros in
            let seconds = micros >= 0 ? micros / 1_000_000 : (micros - 999_999) / 1_000_000
            return Coercion.formatTimestamp(Int(seconds), microseconds: Int(micros - seconds * 1_000_000))
        }
    }
}
