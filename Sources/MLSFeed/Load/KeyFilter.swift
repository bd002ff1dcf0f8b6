/// A Bloom filter of MLS numbers in fixed memory (8 MiB): "surely new" or "maybe seen".
///
/// A first load copies a listing straight into `listings` only when its MLS number is surely new to the run; a
/// "maybe" (a real repeat, or a false positive) is staged and resolved by the merge, so a false positive costs
/// a staged row, never a wrong one. Four probes into 2²⁶ bits: about 1 false positive in 75,000 keys at a million
/// listings, 1 in 20 at ten million, and no growth or rehashing whatever the feed.
struct KeyFilter {
    private static let bitCount = 1 << 26
    private var words = [UInt64](repeating: 0, count: KeyFilter.bitCount / 64)

    /// Adds `key`; returns whether it was surely not there before.
    mutating func insert(_ key: String) -> Bool {
        var hash = ContentHash()
        hash.update(key)
        let h = hash.finalize64()
        // Four probes from two halves of one 64-bit hash (Kirsch–Mitzenmacher double hashing).
        let h1 = h & 0xFFFF_FFFF
        let h2 = (h >> 32) | 1
        var new = false
        for i in 0..<UInt64(4) {
            let bit = Int((h1 &+ i &* h2) & UInt64(KeyFilter.bitCount - 1))
            let mask = UInt64(1) << UInt64(bit & 63)
            if words[bit >> 6] & mask == 0 {
                new = true
                words[bit >> 6] |= mask
            }
        }
        return new
    }
}
