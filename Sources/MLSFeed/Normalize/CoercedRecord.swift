/// What coercion made of one mapped field.
public enum FieldOutcome: Sendable, Hashable {
    case value(Value)
    /// A value was read but broke `rule` in a way that keeps it (a date written with a time of day): the value is
    /// used, and the issue counted like a bad optional value.
    case kept(Value, raw: String, rule: String)
    /// No source key had a non-empty value (or the value means "unknown").
    case missing
    /// None of the field's source keys is in the record at all (not in the feed's columns or keys, or not in this
    /// record of a per-record shape): the merge keeps the stored value.
    case absent
    /// A value was present but broke `rule`.
    case bad(raw: String, rule: String)
}

/// A record after the normalize stage: one outcome per mapped field, the unplaced keys, and the raw record.
public struct CoercedRecord: Sendable, Hashable {
    public var entity: Entity
    /// Parallel to the mapping's fields; for a recognised stored copy (`raw.stored`), the key field's alone.
    public var outcomes: [FieldOutcome]
    public var extra: [RawField]
    public var raw: RawRecord
    /// The agent embedded in a listing, if the mapping has embedded-agent fields.
    public var embeddedAgent: [FieldOutcome]?
    /// The raw fingerprint of the embedded agent's fields: equal fingerprints, equal agents.
    public var agentFingerprint: UInt64?
    /// Control characters removed from this record's values.
    public var removedCharacters: Int

    public init(entity: Entity, outcomes: [FieldOutcome], extra: [RawField], raw: RawRecord,
                embeddedAgent: [FieldOutcome]? = nil, agentFingerprint: UInt64? = nil, removedCharacters: Int = 0) {
        self.entity = entity
        self.outcomes = outcomes
        self.extra = extra
        self.raw = raw
        self.embeddedAgent = embeddedAgent
        self.agentFingerprint = agentFingerprint
        self.removedCharacters = removedCharacters
    }
}
