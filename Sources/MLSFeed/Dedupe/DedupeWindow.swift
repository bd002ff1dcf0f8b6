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

    private struct Seen: Sendable {
        var timestamp: String?
        var ordinal: Int
        var generation: Int
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
    }

    /// Decides the fate of a record with `key`, `timestamp` (canonical UTC text, or nil) and feed `ordinal`.
    package mutating func offer(key: String, timestamp: String?, ordinal: Int) -> Decision {
        generation += 1
        let now = generation
        // One hash of the key: the entry is read and written in place (generation 0 marks a new entry).
        let decision: Decision = { (kept: inout Seen) -> Decision in
            if kept.generation == 0 {
                kept = Seen(timestamp: timestamp, ordinal: ordinal, generation: now)
                return .keep
            }
            guard DedupeWindow.wins(timestamp, ordinal, over: kept.timestamp, kept.ordinal) else { return .drop }
            kept = Seen(timestamp: timestamp, ordinal: ordinal, generation: now)
            return .supersede
        }(&seen[key, default: Seen(timestamp: nil, ordinal: 0, generation: 0)])
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
        switch (t, t0) {
        case let (a?, b?) where a != b: return Value.timestamp(b, precedes: a)
        case (.some, nil): return true
        case (nil, .some): return false
        default: return o > o0
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
