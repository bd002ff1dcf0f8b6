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

    public init(entity: Entity, values: [String: Value], extra: [RawField], position: SourcePosition, ordinal: Int,
                contentHash: String = "") {
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
