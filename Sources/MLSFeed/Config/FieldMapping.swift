/// How one canonical field is made from source keys: where to look, its type, and what a bad value does.
package struct FieldMapping: Sendable, Hashable {
    /// What a present-but-bad value does to the record.
    package enum OnError: String, Sendable, Hashable, CaseIterable {
        case reject, `default`, null
    }

    /// What an `enum` field's value that its `values:` table lacks does (`on_unknown`).
    package enum OnUnknown: String, Sendable, Hashable, CaseIterable {
        /// Stored as the feed sent it (trimmed).
        case keep
        /// Like a bad optional value (NULL, or the default with `on_error: default`; the raw text to `extra`),
        /// counted in the summary by field and value.
        case warn
        /// The record is rejected.
        case reject
    }

    /// The rule of an enum value the field's table lacks, as rejects and the summary show it.
    package static let unknownValueRule = "unknown value"

    /// The `from` that `mapping init` writes where it could not tell the source: refused when a mapping is read.
    package static let placeholder = "TODO"

    /// The canonical column (`list_price`).
    package var name: String
    /// Source keys tried in order; the first non-empty one wins.
    package var sources: [String]
    package var type: FieldType
    package var required: Bool = false
    /// Used when the field is missing (and, with `on_error: default`, when it is bad).
    package var defaultValue: Value?
    package var onError: OnError = .null
    /// `enum` fields: what a value `enumValues` lacks does; by default `reject` when `onError` is `reject` (required
    /// fields), else `warn`.
    package var onUnknown: OnUnknown = .warn
    /// `enum` fields: source word folded by `enumKey` → canonical word.
    package var enumValues: [String: String] = [:]
    /// Inclusive numeric bounds for integer, decimal and money fields.
    package var minimum: Double?
    package var maximum: Double?
    /// `date` and `timestamp` fields: how a slashed date is ordered (`date_order`).
    package var dateOrder: DateOrder = .mdy
    /// `postal_code` fields: the countries whose codes are accepted (`country`).
    package var country: PostalCountry = .usOrCanada
    /// The largest magnitude the column stores (`Column.storageLimits`), looked up once.
    package let storageLimit: Double?
    /// The most bytes the column's text takes (`Column.textByteLimits`), looked up once.
    package let byteLimit: Int?

    package init(name: String, sources: [String], type: FieldType, required: Bool = false, defaultValue: Value? = nil,
                onError: OnError? = nil, onUnknown: OnUnknown? = nil, enumValues: [String: String] = [:],
                minimum: Double? = nil, maximum: Double? = nil) {
        self.name = name
        self.sources = sources
        self.type = type
        self.required = required
        self.defaultValue = defaultValue
        self.onError = onError ?? (required ? .reject : .null)
        self.onUnknown = onUnknown ?? (self.onError == .reject ? .reject : .warn)
        self.enumValues = Dictionary(enumValues.map { (FieldMapping.enumKey($0.key), $0.value) }) { first, _ in first }
        self.minimum = minimum
        self.maximum = maximum
        storageLimit = Column.storageLimits[name]
        byteLimit = Column.textByteLimits[name]
    }
}

extension FieldMapping {
    /// The form an enum word is matched in: lower-cased, without spaces and underscores, so `ActiveUnderContract`,
    /// `Active Under Contract` and `active_under_contract` are one word.
    static func enumKey(_ word: String) -> String {
        var text = word
        let folded: String? = text.withUTF8 { bytes in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            let kept = bytes.reduce(0) { $0 + ($1 == 0x20 || $1 == 0x5F ? 0 : 1) }
            return String(unsafeUninitializedCapacity: kept) { out in
                var n = 0
                for b in bytes where b != 0x20 && b != 0x5F {
                    out[n] = b >= 0x41 && b <= 0x5A ? b | 0x20 : b
                    n += 1
                }
                return n
            }
        }
        return folded ?? word.lowercased().filter { $0 != " " && $0 != "_" }
    }
}

/// A pipeline's mapping: the fields of its record entity and the rows embedded in each listing.
package struct Mapping: Sendable, Hashable {
    /// What each source record is: a listing, or (roster and resource feeds) an agent, office, open house or media
    /// row.
    package var entity: Entity
    package var fields: [FieldMapping]
    /// Rows carried inside listing records (agents, offices, media, open houses), in the mapping's order: from the
    /// record's own keys (`la_first_name`, `ListOfficeName`) or from repeated elements
    /// (`ListingParticipants/Participant`, `Media`). A raw child's `mapping` is an index here.
    package var embedded: [EmbeddedMapping]
    /// The repeated elements whose objects make the listing's `rooms` and `unit_types` (jsonb) columns.
    package var rooms: String?
    package var unitTypes: String?
    /// Source keys that hold lists (`multi_value:`, an EDMX `Collection(...)`): added to the pipeline's
    /// `format.multi_value`.
    package var multiValue: [String]

    package init(entity: Entity, fields: [FieldMapping], embedded: [EmbeddedMapping] = [], rooms: String? = nil,
                 unitTypes: String? = nil, multiValue: [String] = []) {
        self.entity = entity
        self.fields = fields
        self.embedded = embedded
        self.rooms = rooms
        self.unitTypes = unitTypes
        self.multiValue = multiValue
    }

    /// A mapping with one agent read from the record's own keys (`embedded_agent:`).
    package init(entity: Entity, fields: [FieldMapping], embeddedAgent: [FieldMapping]) {
        self.init(entity: entity, fields: fields,
                  embedded: embeddedAgent.isEmpty ? [] : [EmbeddedMapping(fields: embeddedAgent)])
    }

    /// The source keys of the entity's key column (`mls_number` for the servlet mapping), in the mapping's order.
    package var keySources: [String] {
        fields.filter { $0.name == entity.keyColumn }.flatMap(\.sources)
    }

    /// Every source key some field reads from the record itself: these never go to `extra`.
    package var placedKeys: Set<String> {
        Set(fields.flatMap(\.sources) + embedded.filter { $0.each == nil }.flatMap(\.fields).flatMap(\.sources))
    }

    /// Whether any field needs the source's time zone.
    package var hasTimestamps: Bool {
        (fields + embedded.flatMap(\.fields)).contains { $0.type == .timestamp }
    }

    /// The embedded entries read from the record's own keys, with their index in `embedded`.
    var recordEntries: [(index: Int, entry: EmbeddedMapping)] {
        embedded.enumerated().filter { $0.element.each == nil }.map { ($0.offset, $0.element) }
    }

    /// The kinds of row that belong to a listing (media, open houses) the mapping embeds, as `carriedBit`s.
    var ownedKinds: UInt8 {
        embedded.reduce(0) { $0 | $1.entity.carriedBit }
    }
}
