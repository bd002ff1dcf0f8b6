/// One source field as the feed spelled it: key and undecoded-beyond-XML text value.
///
/// An empty value is a missing value. A key may repeat: the repeats form a multi-value field.
package struct RawField: Sendable, Hashable, Codable {
    package var key: String
    package var value: String

    package init(_ key: String, _ value: String) {
        self.key = key
        self.value = value
    }
}

/// A record as the parse stage read it: ordered raw fields, where it started, and its place in the feed.
package struct RawRecord: Sendable, Hashable {
    /// The fields in source order; empty while `unsplit` is set.
    package var fields: [RawField]
    /// Where the record's element (or RETS `DATA` row) starts.
    package var position: SourcePosition
    /// 0-based ordinal of the record within its input; later records win dedupe ties.
    package var ordinal: Int
    /// Set when the parser could not read the record whole (e.g. values count differs from keys count).
    /// Such a record is rejected as a whole with this reason, never loaded half-mapped.
    package var defect: String?
    /// The record's raw fingerprint (`RawHash`), when the run keeps one (database runs of listing feeds).
    package var rawHash: UInt64?
    /// Set when the record is an unchanged copy of a stored listing: `fields` then holds only the keys the
    /// recognizer needs (see `RawRecognizer.neededKeys`).
    package var stored: StoredCopy?
    /// A structured record's (nested XML, JSON) content that no mapping path read, as a JSON object keeping its
    /// shape; nil for flat records, whose unmapped fields are `fields` no mapping field reads.
    package var extraJSON: [UInt8]?
    /// A structured record's repeated elements read by embedded entries with `each:` (and `rooms:`, `unit_types:`),
    /// in entry order, document order within an entry.
    package var children: [RawChild] = []
    /// The groups (`RawChild.bit(of:)`) whose `each:` matched in the record, an empty list (`"Media": []`) included.
    package var matchedGroups: UInt64 = 0
    /// The whole structured record, kept for a reject's raw content.
    var tree: RecordTreeReference?
    /// Set when `fields` are still in the parse stage's text (flat formats): `FieldSplitter` splits them.
    package var unsplit: UnsplitFields?

    package init(fields: [RawField], position: SourcePosition, ordinal: Int, defect: String? = nil,
                rawHash: UInt64? = nil, stored: StoredCopy? = nil, extraJSON: [UInt8]? = nil,
                children: [RawChild] = []) {
        self.fields = fields
        self.position = position
        self.ordinal = ordinal
        self.defect = defect
        self.rawHash = rawHash
        self.stored = stored
        self.extraJSON = extraJSON
        self.children = children
    }

    /// The first non-empty value of `key`, if any.
    package func value(_ key: String) -> String? {
        for field in fields where field.key == key && !field.value.isEmpty { return field.value }
        return nil
    }
}

/// One repeated element of a structured record that an embedded entry reads: one row's raw content (an agent, an
/// office, a photo, an open house; a room or unit type, read whole).
package struct RawChild: Sendable, Hashable {
    /// The entry's index in `Mapping.embedded`, or `roomsMapping`, `unitTypesMapping`.
    package var mapping: Int
    /// The entry's paths that matched, keyed by the path as written.
    package var fields: [RawField]
    /// The element's content no path read, as a JSON object.
    package var extraJSON: [UInt8]

    package init(mapping: Int, fields: [RawField], extraJSON: [UInt8] = Array("{}".utf8)) {
        self.mapping = mapping
        self.fields = fields
        self.extraJSON = extraJSON
    }

    /// The `mapping` of a room's element (`Mapping.rooms`) and of a unit type's (`Mapping.unitTypes`).
    package static let roomsMapping = -1
    package static let unitTypesMapping = -2

    /// The bit of `RawRecord.matchedGroups` for the group of `mapping` (rooms and unit types first).
    package static func bit(of mapping: Int) -> UInt64 {
        let slot = mapping >= 0 ? mapping + 2 : -mapping - 1
        return slot < 64 ? 1 << UInt64(slot) : 0
    }
}

/// A structured record's tree, kept so a reject can store the record whole; not part of a record's value.
struct RecordTreeReference: Sendable, Hashable {
    let forest: RecordForest
    let root: Int32

    static func == (lhs: Self, rhs: Self) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}
