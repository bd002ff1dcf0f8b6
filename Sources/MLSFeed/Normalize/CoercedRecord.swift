/// What coercion made of one mapped field.
package enum FieldOutcome: Sendable, Hashable {
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

/// A row embedded in a listing (an agent, an office, a photo, an open house), coerced: which `Mapping.embedded`
/// entry made it, its field outcomes (parallel to the entry's fields), and the fingerprint of its raw content
/// (equal fingerprints, equal rows).
package struct CoercedChild: Sendable, Hashable {
    package var mapping: Int
    package var outcomes: [FieldOutcome]
    package var fingerprint: UInt64
    /// The repeated element's unmapped content (nil for a row read from the record's own keys).
    package var extraJSON: [UInt8]?

    package init(mapping: Int, outcomes: [FieldOutcome], fingerprint: UInt64, extraJSON: [UInt8]? = nil) {
        self.mapping = mapping
        self.outcomes = outcomes
        self.fingerprint = fingerprint
        self.extraJSON = extraJSON
    }
}

/// A record after the normalize stage: one outcome per mapped field, the unplaced keys, and the raw record.
package struct CoercedRecord: Sendable, Hashable {
    package var entity: Entity
    /// Parallel to the mapping's fields; for a recognised stored copy (`raw.stored`), the key field's alone.
    package var outcomes: [FieldOutcome]
    package var extra: [RawField]
    package var raw: RawRecord
    /// The rows embedded in a listing, in mapping order (and document order within an entry).
    package var children: [CoercedChild]
    /// The owned kinds whose rows the feed record carries (`Entity.carriedBit`), none included.
    package var carries: UInt8 = 0
    /// The listing's `rooms` and `unit_types` (nil: the mapping has no such path).
    package var rooms: FieldOutcome?
    package var unitTypes: FieldOutcome?
    /// Control characters removed from this record's values.
    package var removedCharacters: Int
    /// The record marks its listing deleted (`deleted_when`).
    package var isDeletion = false

    package init(entity: Entity, outcomes: [FieldOutcome], extra: [RawField], raw: RawRecord,
                children: [CoercedChild] = [], removedCharacters: Int = 0) {
        self.entity = entity
        self.outcomes = outcomes
        self.extra = extra
        self.raw = raw
        self.children = children
        self.removedCharacters = removedCharacters
    }
}
