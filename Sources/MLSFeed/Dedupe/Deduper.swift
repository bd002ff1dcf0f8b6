/// The dedupe stage: one listing per MLS number (newest wins, via a bounded window) and one agent per agent id.
///
/// Agents are few (thousands) but repeat in every listing that names them, so they are deduped exactly: an agent
/// is passed on when first seen and again only if its content changed.
public struct Deduper: Sendable {
    private var window: DedupeWindow
    private var agents: [String: String] = [:]
    public private(set) var agentRepeats = 0

    public init(windowCapacity: Int) {
        window = DedupeWindow(capacity: windowCapacity)
    }

    /// Listings dropped as older duplicates within the window.
    public var droppedListings: Int { window.dropped }
    /// Listings passed on although an older copy was already sent: the loader's merge discards that copy.
    public var supersededListings: Int { window.superseded }

    /// Filters one batch, keeping feed order.
    public mutating func process(_ records: [NormalizedRecord]) -> [NormalizedRecord] {
        var out: [NormalizedRecord] = []
        out.reserveCapacity(records.count)
        for record in records {
            guard let key = record.key else { continue }
            switch record.entity {
            case .listing:
                if window.offer(key: key, timestamp: record.modificationTimestamp, ordinal: record.ordinal) != .drop {
                    out.append(record)
                }
            case .agent:
                if agents[key] == record.contentHash {
                    agentRepeats += 1
                } else {
                    agents[key] = record.contentHash
                    out.append(record)
                }
            }
        }
        return out
    }
}
