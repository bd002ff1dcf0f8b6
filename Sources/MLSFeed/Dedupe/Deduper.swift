/// The dedupe stage: one record of the pipeline's entity per key (a listing per MLS number, an office, open house
/// or photo of a resource feed per its key; newest wins, via a bounded window), and one agent or office per key.
///
/// Output is held back by up to `hold` items, so when a newer copy supersedes one still held, the older copy is
/// dropped right here and never leaves the stage: a dry run's output then has one row per MLS number and the
/// merge has fewer duplicates to resolve. Copies that already left are resolved by the loader's merge.
/// Agents and offices are few (thousands) but repeat in every listing that names them, so they are deduped exactly:
/// one is passed on when first seen and again only if its content changed (an agent roster's records too). A
/// listing's media and open houses travel inside it, and go where it goes.
package struct Deduper: Sendable {
    /// An item moving through the stage in feed order.
    package enum Item: Sendable {
        case record(NormalizedRecord)
        case reject(Reject)
    }

    private var window: DedupeWindow
    /// Per entity of the rows deduped exactly (agents, offices), key → content hash of the last passed on.
    private var shared: [Entity: [String: String]] = [:]
    /// The entity deduped by the window (`primary`), unless it is `agent`.
    private let windowed: Entity?
    private let hold: Int
    /// Held items in feed order; a dropped slot becomes nil.
    private var held: [Item?] = []
    private var heldStart = 0
    private var heldCount = 0
    /// Items released so far. An item's absolute slot (`released` plus its distance from `heldStart`) is the
    /// window's tag for a listing: a newer copy finds the older one while it is held without a map of its own (one
    /// that cost two more hashes of every MLS number).
    private var released = 0
    /// Agents and offices dropped as repeats of the last one passed on for their key.
    package private(set) var agentRepeats = 0
    /// Superseded listings dropped while still held.
    package private(set) var droppedHeld = 0

    /// `primary`: the pipeline's entity (`Mapping.entity`); agents are always deduped exactly.
    package init(windowCapacity: Int, hold: Int = 1_000, primary: Entity = .listing) {
        window = DedupeWindow(capacity: windowCapacity)
        windowed = primary == .agent ? nil : primary
        self.hold = max(0, hold)
    }

    /// Listings dropped as older duplicates in memory (within the window, or superseded while held).
    package var droppedListings: Int { window.dropped + droppedHeld }
    /// Listings passed on although an older copy had already left the stage: the loader's merge discards that copy.
    package var supersededListings: Int { window.superseded - droppedHeld }

    /// Takes one batch (records and rejects, each in feed order) and returns what leaves the stage, in feed order.
    package mutating func process(records: consuming [NormalizedRecord], rejects: [Reject]) -> [Item] {
        var r = 0
        // Moved, not copied, from the batch into the held items.
        for record in MovingIterator(consume records) {
            while r < rejects.count && rejects[r].ordinal < record.ordinal {
                admit(.reject(rejects[r]))
                r += 1
            }
            offer(consume record)
        }
        for reject in rejects[r...] { admit(.reject(reject)) }
        return release(keeping: hold)
    }

    /// Everything still held, at the end of the input.
    package mutating func finish() -> [Item] {
        release(keeping: 0)
    }

    private mutating func offer(_ record: consuming NormalizedRecord) {
        guard let key = record.key else { return }
        if record.entity == windowed {
            let slot = released + (held.count - heldStart)
            switch window.offer(key: key, timestamp: record.modificationTimestamp, ordinal: record.ordinal, tag: slot) {
            case .drop:
                return
            case .supersede:
                let older = window.supersededTag
                if older >= released {
                    held[older - released + heldStart] = nil
                    heldCount -= 1
                    droppedHeld += 1
                }
            case .keep:
                break
            }
            admit(.record(consume record))
        } else if shared[record.entity]?[key] == record.contentHash {
            agentRepeats += 1
        } else {
            shared[record.entity, default: [:]][key] = record.contentHash
            admit(.record(consume record))
        }
    }

    private mutating func admit(_ item: consuming Item) {
        held.append(item)
        heldCount += 1
    }

    private mutating func release(keeping: Int) -> [Item] {
        var out: [Item] = []
        while heldCount > keeping, heldStart < held.count {
            // Released: taken out of its slot (a move), which lets go of the record now, not when the array is
            // next compacted.
            if let item = held[heldStart].take() {
                heldCount -= 1
                out.append(item)
            }
            heldStart += 1
            released += 1
        }
        // Skip dropped slots at the front so they do not count against `keeping` later.
        while heldStart < held.count, held[heldStart] == nil {
            heldStart += 1
            released += 1
        }
        if heldStart > 4096 && heldStart * 2 > held.count {
            held.removeFirst(heldStart)
            heldStart = 0
        }
        return out
    }
}
