import MLSFeed

/// A small SplitMix64 generator: deterministic across runs and platforms, seeded per listing and per field.
struct FixtureRandom {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    /// A stream derived from a few numbers (market seed, listing index, field salt ...).
    init(_ a: UInt64, _ b: UInt64, _ c: UInt64 = 0) {
        let left = FixtureRandom.mix(a &+ 0x632B_E59B_D9B4_E019)
        state = FixtureRandom.mix(left ^ FixtureRandom.mix(b ^ (c &* 0x9E37_79B9)))
    }

    /// SplitMix64's finalizer: a good 64-bit hash.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `0..<n` (n > 0; the modulo bias is irrelevant for fixtures).
    mutating func below(_ n: Int) -> Int {
        Int(truncatingIfNeeded: next() % UInt64(n))
    }

    /// Uniform in `lo...hi`.
    mutating func between(_ lo: Int, _ hi: Int) -> Int {
        lo + below(hi - lo + 1)
    }

    /// Uniform in `[0, 1)`.
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    mutating func chance(_ p: Double) -> Bool {
        unit() < p
    }

    mutating func pick<T>(_ items: [T]) -> T {
        items[below(items.count)]
    }

    /// An index into `weights` chosen with probability proportional to its weight.
    mutating func weighted(_ weights: [Int]) -> Int {
        var total = 0
        for w in weights { total += w }
        var roll = below(total)
        for (i, w) in weights.enumerated() {
            if roll < w { return i }
            roll -= w
        }
        return weights.count - 1
    }
}
