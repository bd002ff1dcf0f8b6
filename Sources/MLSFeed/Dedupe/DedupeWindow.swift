/// Newest-wins dedupe by key over a bounded window of recent keys: a pure state machine, no I/O.
///
/// A record whose key is in the window is compared with the kept one by (modification timestamp, ordinal): the
/// loser is dropped and counted. Keys that have left the window are resolved downstream by the database
/// (`DISTINCT ON` in the merge), so memory stays bounded whatever the feed size.
package struct DedupeWindow: Sendable {
    /// What to do with an incoming record.
    package enum Decision: Sendable, Equatable {
        /// First of its key in the window: pass it on.
        case keep
        /// Newer than the one kept: pass it on; the older one already sent is a duplicate the loader resolves.
        case supersede
        /// Older than (or tied before) the one kept: drop it.
        case drop
    }

    /// A remembered key: its kept copy's modification time, ordinal and tag, in 48 bytes (the key inline when
    /// short).
    private struct Entry: Sendable {
        var key: String
        /// The modification timestamp in microseconds since 1970 (`Entry.missing` when there is none).
        var instant: Int64
        var ordinal: Int
        /// What the caller offered with the kept copy (the dedupe stage: where it holds that copy).
        var tag: Int
        /// The key's hash (non-negative), or `Entry.stale` once a newer copy's entry replaced this one.
        var hash: Int

        static let missing = Int64.min
        static let stale = -1
    }

    package let capacity: Int
    /// Entries in arrival order (of a key's first copy, or of the copy that superseded it). The window is
    /// `entries[start...]`; evicted and stale entries are dropped when the array fills, so it never grows past
    /// `capacity` plus a quarter: about 6 MB for 100,000 keys, where a `[String: _]` of that many keys reserved
    /// 262,144 buckets (10.5 MB) and the arrival order as much again.
    private var entries: [Entry] = []
    private var start = 0
    private var live = 0
    private let maxEntries: Int
    /// Open addressing with linear probing: an index into `entries` plus one, 0 for an empty slot; at most half full.
    private var slots: [Int32] = []
    package private(set) var dropped = 0
    package private(set) var superseded = 0
    /// The tag of the copy the last `.supersede` replaced.
    package private(set) var supersededTag = 0
    /// Entries stored (the window's live keys plus evicted and stale ones not yet dropped): for tests.
    var storedEntries: Int { entries.count }

    package init(capacity: Int) {
        precondition(capacity > 0 && capacity <= Int(Int32.max) / 2)
        self.capacity = capacity
        maxEntries = capacity + capacity / 4 + 16
    }

    /// Decides the fate of a record with `key`, `timestamp` (canonical UTC text, or nil) and feed `ordinal`; a kept
    /// copy keeps `tag` (given back in `supersededTag` when a newer copy replaces it).
    package mutating func offer(key: String, timestamp: String?, ordinal: Int, tag: Int = 0) -> Decision {
        makeRoom()
        let instant = timestamp.map(Self.instant) ?? Entry.missing
        let hash = key.hashValue & Int.max
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] != 0 {
            let index = Int(slots[slot]) - 1
            if entries[index].hash == hash && entries[index].key == key {
                guard Self.wins(instant, ordinal, over: entries[index].instant, entries[index].ordinal) else {
                    dropped += 1
                    return .drop
                }
                // The newer copy moves to the end of the arrival order: the window keeps the keys seen last.
                entries[index].hash = Entry.stale
                supersededTag = entries[index].tag
                entries.append(Entry(key: key, instant: instant, ordinal: ordinal, tag: tag, hash: hash))
                slots[slot] = Int32(entries.count)
                superseded += 1
                return .supersede
            }
            slot = (slot + 1) & mask
        }
        entries.append(Entry(key: key, instant: instant, ordinal: ordinal, tag: tag, hash: hash))
        slots[slot] = Int32(entries.count)
        live += 1
        if live > capacity { evictOldest() }
        return .keep
    }

    /// Newest `modification_timestamp` wins (a missing one is oldest); a tie goes to the later record.
    static func wins(_ t: String?, _ o: Int, over t0: String?, _ o0: Int) -> Bool {
        wins(t.map(instant) ?? Entry.missing, o, over: t0.map(instant) ?? Entry.missing, o0)
    }

    private static func wins(_ t: Int64, _ o: Int, over t0: Int64, _ o0: Int) -> Bool {
        t != t0 ? t > t0 : o > o0
    }

    /// Canonical UTC timestamp text (`2026-06-01T15:21:37.432Z`, what coercion writes: 1 to 6 fraction digits, no
    /// trailing zeros) as microseconds since 1970; text of another shape counts as no timestamp.
    static func instant(_ text: String) -> Int64 {
        var text = text
        return text.withUTF8 { bytes -> Int64 in
            func number(_ range: Range<Int>) -> Int? {
                var value = 0
                for index in range {
                    let digit = Int(bytes[index]) - 0x30
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            guard bytes.count >= 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A,
                  bytes[16] == 0x3A, bytes[bytes.count - 1] == 0x5A,
                  let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
                  let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
            else { return Entry.missing }
            var micros = 0
            if bytes.count > 20 {
                let digits = bytes.count - 21
                guard bytes[19] == 0x2E, (1...6).contains(digits), let fraction = number(20..<(bytes.count - 1))
                else { return Entry.missing }
                micros = fraction
                for _ in digits..<6 { micros *= 10 }
            }
            let days = CivilDate.days(year, month, day)
            return Int64(((days * 24 + hour) * 60 + minute) * 60 + second) * 1_000_000 + Int64(micros)
        }
    }

    /// Drops the oldest live key (and the stale entries before it) from the window.
    private mutating func evictOldest() {
        while entries[start].hash == Entry.stale { start += 1 }
        let oldest = start
        start += 1
        live -= 1
        let mask = slots.count - 1
        var hole = entries[oldest].hash & mask
        while slots[hole] != Int32(oldest + 1) { hole = (hole + 1) & mask }
        // Backward-shift deletion: an entry after the hole moves into it unless its home lies cyclically in
        // (hole, here], so every probe sequence stays unbroken without tombstones.
        var here = (hole + 1) & mask
        while slots[here] != 0 {
            let home = entries[Int(slots[here]) - 1].hash & mask
            if (here > hole && (home <= hole || home > here)) || (here < hole && home <= hole && home > here) {
                slots[hole] = slots[here]
                hole = here
            }
            here = (here + 1) & mask
        }
        slots[hole] = 0
    }

    /// Before an offer: room for one more entry without growing past `maxEntries` (evicted and stale entries are
    /// dropped in place when the array is full), and a table at most half full after one more key.
    private mutating func makeRoom() {
        var rebuild = false
        if entries.count == entries.capacity {
            if entries.count >= maxEntries || start >= entries.count / 2 {
                var kept = 0
                for index in start..<entries.count where entries[index].hash != Entry.stale {
                    if kept != index { entries.swapAt(kept, index) }
                    kept += 1
                }
                entries.removeLast(entries.count - kept)
                start = 0
                rebuild = true
            }
            if entries.count == entries.capacity {
                entries.reserveCapacity(min(maxEntries, max(64, entries.count * 2)))
            }
        }
        if slots.count < 2 * (live + 1) {
            var size = max(64, slots.count)
            while size < 2 * (live + 1) { size *= 2 }
            slots = []
            slots = [Int32](repeating: 0, count: size)
            rebuild = true
        } else if rebuild {
            for slot in slots.indices { slots[slot] = 0 }
        }
        guard rebuild else { return }
        let mask = slots.count - 1
        for index in start..<entries.count where entries[index].hash != Entry.stale {
            var slot = entries[index].hash & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index + 1)
        }
    }
}
