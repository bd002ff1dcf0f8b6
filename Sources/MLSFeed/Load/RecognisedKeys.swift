/// The stored listings a run's recognised copies named, one bit each: while none is named twice, the recognised
/// keys are distinct, and the merge counts them without indexing and reading back `seen_listings`.
///
/// A recognised copy repeats the raw fingerprint of the stored listing it copies, and a fingerprint has one place
/// in the stored set (`StoredCopy.place`), so two copies of one listing name the same place. A copy with no known
/// place (or a run with no set) leaves the keys unknown, as a repeat does: both read as "may repeat", and the merge
/// then counts in SQL as it always can. 125 KB for a million stored listings.
struct RecognisedKeys {
    private var marks: [UInt64] = []
    /// Set once a place was named twice, or a copy named none: the recognised keys may repeat.
    private(set) var mayRepeat = false

    /// Notes one recognised copy at `place` of a stored set of `count` listings (nil when the run has none).
    mutating func note(place: Int32, of count: Int?) {
        guard !mayRepeat else { return }
        guard let count, place >= 0, Int(place) < count else { return giveUp() }
        if marks.isEmpty { marks = [UInt64](repeating: 0, count: (count + 63) / 64) }
        let word = Int(place) >> 6, bit = UInt64(1) << UInt64(place & 63)
        if marks[word] & bit != 0 { return giveUp() }
        marks[word] |= bit
    }

    private mutating func giveUp() {
        mayRepeat = true
        marks = []
    }
}
