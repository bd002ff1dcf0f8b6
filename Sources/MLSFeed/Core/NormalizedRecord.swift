/// A typed listing or agent: canonical column values, the unmapped source keys, and where it came from.
public struct NormalizedRecord: Sendable, Hashable {
    public var entity: Entity
    /// Canonical column name → value; a column absent here is NULL.
    public var values: [String: Value]
    /// Every source key the mapping did not place, verbatim, in source order (repeats kept).
    public var extra: [RawField]
    public var position: SourcePosition
    /// Run-wide 0-based ordinal in feed order; among duplicates with equal timestamps the higher one wins.
    public var ordinal: Int
    /// Hex hash of the normalized content (values and extra, not position): equal hashes mean an unchanged row.
    public var contentHash: String
    /// The raw fingerprint of the record it came from (`RawHash`), kept with the listing so the next run can
    /// recognise an unchanged copy; nil when the record had warnings (they must be counted again) or is an agent.
    public var rawHash: UInt64?
    /// An unchanged copy of a stored listing: `values` holds only its key and modification timestamp, and the
    /// load sends just the key.
    public var isStored: Bool

    public init(entity: Entity, values: [String: Value], extra: [RawField], position: SourcePosition, ordinal: Int,
                contentHash: String = "", rawHash: UInt64? = nil, isStored: Bool = false) {
        self.rawHash = rawHash
        self.isStored = isStored
        self.entity = entity
        self.values = values
        self.extra = extra
        self.position = position
        self.ordinal = ordinal
        self.contentHash = contentHash
    }

    /// The record's key within its source (MLS number, agent id), when present.
    public var key: String? {
        if case .text(let k)? = values[entity.keyColumn] { return k }
        return nil
    }

    /// The modification timestamp (UTC canonical text) that decides which duplicate wins.
    public var modificationTimestamp: String? {
        if case .timestamp(let t)? = values["modification_timestamp"] { return t }
        return nil
    }
}
