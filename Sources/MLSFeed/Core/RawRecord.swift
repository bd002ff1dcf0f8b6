/// One source field as the feed spelled it: key and undecoded-beyond-XML text value.
///
/// An empty value is a missing value. A key may repeat: the repeats form a multi-value field.
public struct RawField: Sendable, Hashable, Codable {
    public var key: String
    public var value: String

    public init(_ key: String, _ value: String) {
        self.key = key
        self.value = value
    }
}

/// A record as the parse stage read it: ordered raw fields, where it started, and its place in the feed.
public struct RawRecord: Sendable, Hashable {
    /// The fields in source order.
    public var fields: [RawField]
    /// Where the record's element (or RETS `DATA` row) starts.
    public var position: SourcePosition
    /// 0-based ordinal of the record within its input; later records win dedupe ties.
    public var ordinal: Int
    /// Set when the parser could not read the record whole (e.g. values count differs from keys count).
    /// Such a record is rejected as a whole with this reason, never loaded half-mapped.
    public var defect: String?
    /// The record's raw fingerprint (`RawHash`), when the run keeps one (database runs of listing feeds).
    public var rawHash: UInt64?
    /// Set when the record is an unchanged copy of a stored listing: `fields` then holds only the keys the
    /// recognizer needs (see `RawRecognizer.neededKeys`).
    public var stored: StoredCopy?
    /// A structured record's (nested XML, JSON) content that no mapping path read, as a JSON object keeping its
    /// shape; nil for flat records, whose unmapped fields are `fields` no mapping field reads.
    public var extraJSON: [UInt8]?
    /// A structured record's repeated elements read by `embedded_agents` entries with `each:`, in document order.
    public var children: [RawChild] = []
    /// The whole structured record, kept for a reject's raw content.
    var tree: RecordTreeReference?

    public init(fields: [RawField], position: SourcePosition, ordinal: Int, defect: String? = nil,
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
    public func value(_ key: String) -> String? {
        for field in fields where field.key == key && !field.value.isEmpty { return field.value }
        return nil
    }
}

/// One repeated element of a structured record that an `embedded_agents` entry reads: one agent's raw content.
public struct RawChild: Sendable, Hashable {
    /// The entry's index in `Mapping.embeddedAgents`.
    public var mapping: Int
    /// The entry's paths that matched, keyed by the path as written.
    public var fields: [RawField]
    /// The element's content no path read, as a JSON object.
    public var extraJSON: [UInt8]

    public init(mapping: Int, fields: [RawField], extraJSON: [UInt8] = Array("{}".utf8)) {
        self.mapping = mapping
        self.fields = fields
        self.extraJSON = extraJSON
    }
}

/// A structured record's tree, kept so a reject can store the record whole; not part of a record's value.
struct RecordTreeReference: Sendable, Hashable {
    let forest: RecordForest
    let root: Int32

    static func == (lhs: Self, rhs: Self) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}
