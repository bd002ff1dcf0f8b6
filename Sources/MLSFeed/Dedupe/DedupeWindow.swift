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

    /// What the window remembers of a key: 24 bytes, no string (a window of 100,000 keys is about 13 MB).
    private struct Seen: Sendable {
        /// The modification timestamp in microseconds since 1970 (`Seen.missing` when there is none).
        var instant: Int64
        var ordinal: Int
        var generation: Int

        static let missing = Int64.min
    }

    package let capacity: Int
    private var seen: [String: Seen] = [:]
    /// Keys in arrival order, for eviction; entries whose generation no longer matches are stale.
    private var order: [(key: String, generation: Int)] = []
    private var orderStart = 0
    private var generation = 0
    package private(set) var dropped = 0
    package private(set) var superseded = 0

    package init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
        // Sized once: growing a dictionary of this size holds the old and the new storage at the same time.
        seen.reserveCapacity(min(capacity, 1 << 20) + 1)
    }

    /// Decides the fate of a record with `key`, `timestamp` (canonical UTC text, or nil) and feed `ordinal`.
    package mutating func offer(key: String, timestamp: String?, ordinal: Int) -> Decision {
        generation += 1
        let now = generation
        let instant = timestamp.map(Self.instant) ?? Seen.missing
        // One hash of the key: the entry is read and written in place (generation 0 marks a new entry).
        let decision: Decision = { (kept: inout Seen) -> Decision in
            if kept.generation == 0 {
                kept = Seen(instant: instant, ordinal: ordinal, generation: now)
                return .keep
            }
            guard DedupeWindow.wins(instant, ordinal, over: kept.instant, kept.ordinal) else { return .drop }
            kept = Seen(instant: instant, ordinal: ordinal, generation: now)
            return .supersede
        }(&seen[key, default: Seen(instant: Seen.missing, ordinal: 0, generation: 0)])
        switch decision {
        case .keep:
            order.append((key, now))
            evict()
        case .supersede:
            order.append((key, now))
            superseded += 1
            compact()
        case .drop:
            dropped += 1
        }
        return decision
    }

    /// Newest `modification_timestamp` wins (a missing one is oldest); a tie goes to the later record.
    static func wins(_ t: String?, _ o: Int, over t0: String?, _ o0: Int) -> Bool {
        wins(t.map(instant) ?? Seen.missing, o, over: t0.map(instant) ?? Seen.missing, o0)
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
            else { return Seen.missing }
            var micros = 0
            if bytes.count > 20 {
                let digits = bytes.count - 21
                guard bytes[19] == 0x2E, (1...6).contains(digits), let fraction = number(20..<(bytes.count - 1))
                else { return Seen.missing }
                micros = fraction
                for _ in digits..<6 { micros *= 10 }
            }
            let days = CivilDate.days(year, month, day)
            return Int64(((days * 24 + hour) * 60 + minute) * 60 + second) * 1_000_000 + Int64(micros)
        }
    }

    private mutating func evict() {
        while seen.count > capacity, orderStart < order.count {
            let entry = order[orderStart]
            orderStart += 1
            if let index = seen.index(forKey: entry.key), seen.values[index].generation == entry.generation {
                seen.remove(at: index)
            }
        }
        compact()
    }

    private mutating func compact() {
        if orderStart > 4096 && orderStart * 2 > order.count {
            order.removeFirst(orderStart)
            orderStart = 0
        }
    }
}
