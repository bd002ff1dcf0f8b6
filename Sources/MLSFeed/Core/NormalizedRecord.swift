/// A typed row of one of the tables (`Entity`): canonical column values, the unmapped source keys, and where it came
/// from; a listing also carries its media and open houses (`children`).
package struct NormalizedRecord: Sendable, Hashable {
    package var entity: Entity
    /// The values in the entity's column order (`entity.columns`); nil is NULL. A stored copy (`isStored`) holds
    /// two only: its key and its modification timestamp (`storedColumns`).
    package var columns: [Value?]
    /// Every source key the mapping did not place, verbatim, in source order (repeats kept).
    package var extra: [RawField]
    package var position: SourcePosition
    /// Run-wide 0-based ordinal in feed order; among duplicates with equal timestamps the higher one wins.
    package var ordinal: Int
    /// Hex hash of the normalized content (values and extra, not position): equal hashes mean an unchanged row.
    package var contentHash: String
    /// The raw fingerprint of the record it came from (`RawHash`), kept with the listing so the next run can
    /// recognise an unchanged copy; nil when the record had warnings (they must be counted again) or is an agent.
    package var rawHash: UInt64?
    /// An unchanged copy of a stored listing: `columns` holds only its key and modification timestamp, and the
    /// load sends just the key.
    package private(set) var isStored: Bool
    /// A stored copy's place in the run's stored set (`StoredCopy.place`), -1 when not known.
    package var storedPlace: Int32 = -1
    /// Columns (bit `i` for `columns[i]`) whose source keys the feed does not carry: the merge keeps their stored
    /// values (a new listing gets the value here: the field's default, or NULL). 0 for a full record.
    package var absent: UInt64 = 0
    /// A structured record's unmapped content as a JSON object (then `extra` is empty); nil for flat records.
    package var extraJSON: [UInt8]?
    /// A deletion (`deleted_when`): its listing is withdrawn, never inserted; `columns` holds only the key and the
    /// modification timestamp.
    package var isDeletion = false
    /// A listing's media and open houses, in the mapping's order (document order within an entry), with the
    /// listing's key in `listing_id` and its ordinal: they are written only with this copy of the listing.
    package var children: [NormalizedRecord] = []
    /// The kinds of the listing's rows its feed record carries (`Entity.carriedBit`), none included: the run
    /// replaces the media of its listings only when its feed carries media at all.
    package var carries: UInt8 = 0

    package init(entity: Entity, columns: [Value?], extra: [RawField], position: SourcePosition, ordinal: Int,
                contentHash: String = "", rawHash: UInt64? = nil, isStored: Bool = false, absent: UInt64 = 0,
                extraJSON: [UInt8]? = nil) {
        self.absent = absent
        self.extraJSON = extraJSON
        self.rawHash = rawHash
        self.isStored = isStored
        self.entity = entity
        if isStored && columns.count != Self.storedColumns.count {
            precondition(columns.count == entity.columns.count, "one value per column of \(entity.rawValue)")
            self.columns = Self.storedColumns.map { columns[$0] }
        } else {
            precondition(columns.count == (isStored ? Self.storedColumns.count : entity.columns.count),
                         "one value per column of \(entity.rawValue)")
            self.columns = columns
        }
        self.extra = extra
        self.position = position
        self.ordinal = ordinal
        self.contentHash = contentHash
    }

    /// Whether the feed carries column `index` (see `absent`).
    package func carries(_ index: Int) -> Bool {
        absent & (1 << UInt64(index)) == 0
    }

    /// A record given as column name → value (a column absent is NULL); names must be the entity's columns.
    package init(entity: Entity, values: [String: Value], extra: [RawField], position: SourcePosition, ordinal: Int,
                contentHash: String = "", rawHash: UInt64? = nil, isStored: Bool = false) {
        self.init(entity: entity, columns: entity.columns.map { values[$0.name] }, extra: extra, position: position,
                  ordinal: ordinal, contentHash: contentHash, rawHash: rawHash, isStored: isStored)
        precondition(values.keys.allSatisfy { entity.columnIndex[$0] != nil }, "unknown column in \(values.keys)")
    }

    /// The columns a stored copy keeps (`columns` of an `isStored` record), by their index in `entity.columns`:
    /// the key and the modification timestamp. A reload makes, passes on and frees one for nearly every listing;
    /// with all 41 slots that took about 3,000 instructions a listing.
    package static let storedColumns = [0, Column.listingModificationIndex]

    /// The entity's columns that `columns` holds, in order: all of them, or a stored copy's `storedColumns`.
    private var columnIndices: [Int] {
        isStored ? Self.storedColumns : Array(entity.columns.indices)
    }

    /// Column name → value of the non-NULL columns (a view of `columns`; setting it replaces them all).
    package var values: [String: Value] {
        get {
            var out: [String: Value] = [:]
            for (index, value) in zip(columnIndices, columns) {
                if let value { out[entity.columns[index].name] = value }
            }
            return out
        }
        set {
            columns = columnIndices.map { newValue[entity.columns[$0].name] }
        }
    }

    /// The record's key within its source (MLS number, agent id), when present: the first column.
    package var key: String? {
        if case .text(let k)? = columns[0] { return k }
        return nil
    }

    /// A recognised copy with a key: the load sends only its key (to `seen_listings`).
    package var isRecognisedKey: Bool {
        guard isStored, case .text? = columns[0] else { return false }
        return true
    }

    /// The modification timestamp (UTC canonical text) that decides which duplicate wins; nil for agents.
    package var modificationTimestamp: String? {
        guard let index = entity.modificationIndex,
              case .timestamp(let t)? = columns[isStored ? 1 : index] else { return nil }
        return t
    }
}
