import Postgres

/// Fingerprints of a source's on-market listings (MLS number + content hash), read once per run, so the load
/// ships only listings that changed: an unchanged listing sends just its key (full-mode reconciliation needs it)
/// instead of a whole row to stage and compare. A sorted `[UInt64]`: 8 MB for a million listings.
///
/// A fingerprint collision could only make a changed listing look unchanged if two different (key, hash) pairs
/// collide in 64 bits: for a million listings that chance is about 1 in 3·10⁷.
struct UnchangedListings {
    private var fingerprints: [UInt64] = []

    /// Reads the fingerprints of `source`'s on-market listings through a cursor, in bounded batches.
    /// Off-market listings are left out, so a listing that comes back is staged and restored as usual.
    static func load(_ data: Connection, source: String) throws -> UnchangedListings {
        var set = UnchangedListings()
        // Reserving the exact size avoids the array's doubling (a transient 16 MB for a million listings).
        let count = Int(try data.execute("""
            SELECT count(*) FROM listings WHERE source = $1 AND off_market_at IS NULL AND content_hash IS NOT NULL
            """, [source]).rows.first?.first.flatMap { $0 } ?? "") ?? 0
        guard count > 0 else { return set }
        set.fingerprints.reserveCapacity(count)
        try data.execute("""
            DECLARE unchanged_fingerprints NO SCROLL CURSOR FOR
            SELECT listing_id, content_hash FROM listings
            WHERE source = $1 AND off_market_at IS NULL AND content_hash IS NOT NULL
            """, [source])
        while true {
            let batch = try data.execute("FETCH 20000 FROM unchanged_fingerprints")
            if batch.rows.isEmpty { break }
            for row in batch.rows {
                if let key = row[0], let hash = row[1] { set.fingerprints.append(fingerprint(key: key, hash: hash)) }
            }
        }
        try data.execute("CLOSE unchanged_fingerprints")
        set.fingerprints.sort()
        return set
    }

    var isEmpty: Bool { fingerprints.isEmpty }

    /// Whether the source already holds exactly this listing (same MLS number, same content hash).
    func contains(key: String, hash: String) -> Bool {
        let target = UnchangedListings.fingerprint(key: key, hash: hash)
        var low = 0
        var high = fingerprints.count
        while low < high {
            let mid = (low + high) / 2
            if fingerprints[mid] < target { low = mid + 1 } else { high = mid }
        }
        return low < fingerprints.count && fingerprints[low] == target
    }

    /// FNV-1a (64-bit) of the key, a separator byte and the hash: stable across processes, unlike `Hasher`.
    static func fingerprint(key: String, hash: String) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        value = (value ^ 0xFF) &* 0x0000_0100_0000_01b3
        for byte in hash.utf8 { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return value
    }
}
