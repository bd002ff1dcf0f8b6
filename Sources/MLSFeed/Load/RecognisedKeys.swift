/// The stored listings a run's recognised copies named, one bit each: while none is named twice, the recognised
/// keys are distinct, and the merge counts them without indexing and reading back `seen_listings`; and the
/// listings none named are the only ones a full dump can have left out (`MergeStatements.withdrawUnnamed`).
///
/// A recognised copy repeats the raw fingerprint of the stored listing it copies, and a fingerprint has one place
/// in the stored set (`StoredCopy.place`), so two copies of one listing name the same place. A copy with no known
/// place (or a run with no set) leaves the keys unknown: they read as "may repeat", the places as unknown, and the
/// merge then counts and withdraws in SQL as it always can. 125 KB for a million stored listings.
struct RecognisedKeys {
    private var marks: [UInt64] = []
    /// Set once a place was named twice, or a copy named none: the recognised keys may repeat.
    private(set) var mayRepeat = false
    /// Cleared once a copy named no place in the set: the marks then miss a listing the dump carries.
    private(set) var placesKnown = true

    /// Notes one recognised copy at `place` of a stored set of `count` listings (nil when the run has none).
    mutating func note(place: Int32, of count: Int?) {
        guard placesKnown else { return }
        guard let count, place >= 0, Int(place) < count else {
            mayRepeat = true
            placesKnown = false
            marks = []
            return
        }
        if marks.isEmpty { marks = [UInt64](repeating: 0, count: (count + 63) / 64) }
        let word = Int(place) >> 6, bit = UInt64(1) << UInt64(place & 63)
        if marks[word] & bit != 0 { mayRepeat = true }
        marks[word] |= bit
    }

    /// Whether a recognised copy named the stored listing at `place` (meaningful while `placesKnown`).
    func named(_ place: Int) -> Bool {
        let word = place >> 6
        return word < marks.count && marks[word] & (UInt64(1) << UInt64(place & 63)) != 0
    }
}
