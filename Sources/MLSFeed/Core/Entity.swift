/// The kinds of record mlsfeed loads, each a table, with their columns in table order.
package enum Entity: String, Sendable, Hashable, CaseIterable, Codable {
    case listing
    case agent
    case office
    case openHouse = "open_house"
    case media

    /// The typed columns of the entity's table (besides `source`, `extra`, `content_hash` and bookkeeping).
    package var columns: [Column] {
        switch self {
        case .listing: return Column.listing
        case .agent: return Column.agent
        case .office: return Column.office
        case .openHouse: return Column.openHouse
        case .media: return Column.media
        }
    }

    /// Column name → its index in `columns`.
    package var columnIndex: [String: Int] {
        switch self {
        case .listing: return Column.listingIndex
        case .agent: return Column.agentIndex
        case .office: return Column.officeIndex
        case .openHouse: return Column.openHouseIndex
        case .media: return Column.mediaIndex
        }
    }

    /// How many of `columns` the first release had: every later column is appended, and counts in a row's content
    /// hash only when it holds a value (see `ContentHash.of`), so rows written before it keep their hashes.
    var firstReleaseColumns: Int {
        switch self {
        case .listing: return 32
        case .agent: return 8
        case .office, .openHouse, .media: return columns.count
        }
    }

    /// The column that identifies a record within its source (always the first column).
    package var keyColumn: String {
        columns[0].name
    }

    /// The entity's table (`listings`, `open_houses`).
    package var table: String {
        switch self {
        case .listing: return "listings"
        case .agent: return "agents"
        case .office: return "offices"
        case .openHouse: return "open_houses"
        case .media: return "media"
        }
    }

    /// The index of `modification_timestamp` in `columns`; nil for agents, which have none.
    package var modificationIndex: Int? {
        switch self {
        case .listing: return Column.listingModificationIndex
        case .agent: return nil
        case .office, .openHouse, .media: return columnIndex["modification_timestamp"]
        }
    }

    /// Rows that belong to one listing (`listing_id`): embedded in a listing, they are the whole truth about it
    /// and go and come with its winning copy.
    package var belongsToListing: Bool {
        self == .media || self == .openHouse
    }

    /// The bit of a listing's `NormalizedRecord.carries` that says its feed record carries this kind of row.
    package var carriedBit: UInt8 {
        switch self {
        case .media: return 1
        case .openHouse: return 2
        default: return 0
        }
    }

    /// The prefix of an embedded row's issues in the run summary (`media.media_order: 1 not an integer`).
    package var issuePrefix: String {
        rawValue + "."
    }

    /// The mapping key that embeds rows of this entity in listings (`embedded_media`).
    package var embeddedKey: String {
        switch self {
        case .listing: return "embedded_listings"
        case .agent: return "embedded_agents"
        case .office: return "embedded_offices"
        case .openHouse: return "embedded_open_houses"
        case .media: return "embedded_media"
        }
    }
}

/// A typed column of a table mlsfeed loads (see docs/data-model.md).
package struct Column: Sendable, Hashable {
    package enum SQLType: String, Sendable {
        case text, integer, numeric, double = "double precision", date, timestamptz, jsonb
    }

    package var name: String
    package var type: SQLType

    package init(_ name: String, _ type: SQLType) {
        self.name = name
        self.type = type
    }

    /// The largest magnitude each bounded column stores, by name: `integer` columns hold 32 bits and the prices are
    /// `numeric(14,2)`. A larger value is a reject of its record, never a failed COPY of the whole run.
    package static let storageLimits: [String: Double] = {
        var limits: [String: Double] = [:]
        for entity in Entity.allCases {
            for column in entity.columns where column.type == .integer { limits[column.name] = Double(Int32.max) }
        }
        for name in ["list_price", "original_list_price", "close_price"] { limits[name] = 999_999_999_999.99 }
        return limits
    }()

    /// The most bytes a text column in an index takes (`indexedTextBytes` each), by name: the keys and the columns
    /// the search indexes hold. A B-tree entry holds at most about 2,700 bytes, and the widest (a search index:
    /// status and city twice, ZIP, property type, the key) stays under it with every column at the bound; a longer
    /// value is bad like any other (a key's rejects its record), never a failed COPY or merge of the whole run.
    package static let textByteLimits: [String: Int] = {
        let indexed = ["listing_id", "standard_status", "property_type", "city", "postal_code", "street_number",
                       "street_name", "list_office_mls_id", "agent_mls_id", "office_mls_id", "first_name",
                       "last_name", "full_name", "media_key", "open_house_key"]
        return Dictionary(uniqueKeysWithValues: indexed.map { ($0, indexedTextBytes) })
    }()

    /// The bound of `textByteLimits` (what RESO gives its string keys).
    package static let indexedTextBytes = 255

    package static let listing: [Column] = [
        Column("listing_id", .text), Column("standard_status", .text), Column("property_type", .text),
        Column("list_price", .numeric), Column("original_list_price", .numeric), Column("close_price", .numeric),
        Column("listing_contract_date", .date), Column("modification_timestamp", .timestamptz),
        Column("bedrooms_total", .integer), Column("bathrooms_full", .integer), Column("bathrooms_half", .integer),
        Column("living_area", .numeric), Column("lot_size_square_feet", .numeric), Column("year_built", .integer),
        Column("street_number", .text), Column("street_name", .text), Column("unit_number", .text),
        Column("city", .text), Column("state_or_province", .text), Column("postal_code", .text),
        Column("county_or_parish", .text), Column("mls_area", .text),
        Column("latitude", .double), Column("longitude", .double),
        Column("public_remarks", .text), Column("private_remarks", .text), Column("directions", .text),
        Column("showing_instructions", .text), Column("owner_name", .text),
        Column("list_agent_mls_id", .text), Column("list_office_mls_id", .text), Column("list_office_name", .text),
        // Added after the first release (see `Entity.firstReleaseColumns`).
        Column("co_list_agent_mls_id", .text), Column("listing_key", .text),
        // Filled by the mapping's `rooms:` and `unit_types:` paths, never by a field (see `structuredColumns`).
        Column("rooms", .jsonb), Column("unit_types", .jsonb),
    ]

    static let listingIndex = Dictionary(uniqueKeysWithValues: listing.enumerated().map { ($1.name, $0) })
    static let agentIndex = Dictionary(uniqueKeysWithValues: agent.enumerated().map { ($1.name, $0) })
    static let officeIndex = Dictionary(uniqueKeysWithValues: office.enumerated().map { ($1.name, $0) })
    static let openHouseIndex = Dictionary(uniqueKeysWithValues: openHouse.enumerated().map { ($1.name, $0) })
    static let mediaIndex = Dictionary(uniqueKeysWithValues: media.enumerated().map { ($1.name, $0) })
    static let listingModificationIndex = listingIndex["modification_timestamp"]!
    static let agentEmailIndex = agentIndex["email"]!
    /// The listing's `rooms` and `unit_types` columns.
    package static let roomsIndex = listingIndex["rooms"]!
    package static let unitTypesIndex = listingIndex["unit_types"]!

    package static let agent: [Column] = [
        Column("agent_mls_id", .text), Column("first_name", .text), Column("last_name", .text),
        Column("office_mls_id", .text), Column("office_name", .text), Column("office_phone", .text),
        Column("mobile_phone", .text), Column("email", .text),
        // Added after the first release (see `Entity.firstReleaseColumns`).
        Column("full_name", .text),
    ]

    /// `offices`: RESO Office, from office rosters and the offices listings name.
    package static let office: [Column] = [
        Column("office_mls_id", .text), Column("office_key", .text), Column("office_name", .text),
        Column("phone", .text), Column("email", .text), Column("street_address", .text), Column("city", .text),
        Column("state_or_province", .text), Column("postal_code", .text),
        Column("modification_timestamp", .timestamptz),
    ]

    /// `open_houses`: RESO OpenHouse, from an OpenHouse resource or a listing's expanded open houses.
    package static let openHouse: [Column] = [
        Column("open_house_key", .text), Column("listing_id", .text), Column("start_at", .timestamptz),
        Column("end_at", .timestamptz), Column("open_house_type", .text), Column("status", .text),
        Column("remarks", .text), Column("modification_timestamp", .timestamptz),
    ]

    /// `media`: RESO Media (photos), from a Media resource or a listing's expanded media or photos.
    package static let media: [Column] = [
        Column("media_key", .text), Column("listing_id", .text), Column("media_order", .integer),
        Column("media_url", .text), Column("media_category", .text), Column("short_description", .text),
        Column("modification_timestamp", .timestamptz), Column("image_width", .integer),
        Column("image_height", .integer),
    ]
}

extension Entity {
    /// The entity's rows in a sentence (`only a listing mapping can embed open houses`).
    package var plural: String {
        switch self {
        case .listing: return "listings"
        case .agent: return "agents"
        case .office: return "offices"
        case .openHouse: return "open houses"
        case .media: return "media"
        }
    }
}
