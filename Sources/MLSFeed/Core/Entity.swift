/// The two kinds of record mlsfeed loads, with their columns in table order.
package enum Entity: String, Sendable, Hashable, CaseIterable, Codable {
    case listing
    case agent

    /// The typed columns of the entity's table (besides `source`, `extra`, `content_hash` and bookkeeping).
    package var columns: [Column] {
        switch self {
        case .listing: return Column.listing
        case .agent: return Column.agent
        }
    }

    /// Column name → its index in `columns`.
    package var columnIndex: [String: Int] {
        switch self {
        case .listing: return Column.listingIndex
        case .agent: return Column.agentIndex
        }
    }

    /// How many of `columns` the first release had: every later column is appended, and counts in a row's content
    /// hash only when it holds a value (see `ContentHash.of`), so rows written before it keep their hashes.
    var firstReleaseColumns: Int {
        switch self {
        case .listing: return 32
        case .agent: return 8
        }
    }

    /// The column that identifies a record within its source (always the first column).
    package var keyColumn: String {
        switch self {
        case .listing: return "listing_id"
        case .agent: return "agent_mls_id"
        }
    }
}

/// A typed column of `listings` or `agents` (see docs/data-model.md).
package struct Column: Sendable, Hashable {
    package enum SQLType: String, Sendable {
        case text, integer, numeric, double = "double precision", date, timestamptz
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
        for column in listing + agent where column.type == .integer { limits[column.name] = Double(Int32.max) }
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
                       "last_name", "full_name"]
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
    ]

    static let listingIndex = Dictionary(uniqueKeysWithValues: listing.enumerated().map { ($1.name, $0) })
    static let agentIndex = Dictionary(uniqueKeysWithValues: agent.enumerated().map { ($1.name, $0) })
    static let listingModificationIndex = listingIndex["modification_timestamp"]!
    static let agentEmailIndex = agentIndex["email"]!

    package static let agent: [Column] = [
        Column("agent_mls_id", .text), Column("first_name", .text), Column("last_name", .text),
        Column("office_mls_id", .text), Column("office_name", .text), Column("office_phone", .text),
        Column("mobile_phone", .text), Column("email", .text),
        // Added after the first release (see `Entity.firstReleaseColumns`).
        Column("full_name", .text),
    ]
}
