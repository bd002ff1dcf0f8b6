/// How a starter mapping finds a column in metadata (by standard name) and what it writes for it.
struct ColumnRule: Sendable {
    /// The canonical column (`list_price`).
    var column: String
    /// The standard names that fill it, in order of preference: RESO Data Dictionary names first, then a few
    /// RETS 1.x standard names (`Bedrooms`, `ListAgentAgentID`).
    var names: [String]
    /// Whether every field found is read, tried in order (`office_phone`), or only the first one found.
    var readsAll = false
    var type: FieldType
    var required = false
    var minimum: Double?
    var maximum: Double?
    /// For columns that store RESO member names: the RESO lookup entries are mapped onto.
    var reso: RESOValues?

    init(_ column: String, _ names: [String], _ type: FieldType, required: Bool = false, readsAll: Bool = false,
         min: Double? = nil, max: Double? = nil, reso: RESOValues? = nil) {
        self.column = column
        self.names = names
        self.type = type
        self.required = required
        self.readsAll = readsAll
        self.minimum = min
        self.maximum = max
        self.reso = reso
    }

    /// The rules of `entity`'s columns, in column order.
    static func rules(for entity: Entity) -> [ColumnRule] {
        entity == .listing ? listing : agent
    }

    /// Listing columns (`Property` fields).
    static let listing: [ColumnRule] = [
        ColumnRule("listing_id", ["ListingId", "ListingKey"], .text, required: true),
        ColumnRule("standard_status", ["StandardStatus"], .enum, required: true, reso: .standardStatus),
        ColumnRule("property_type", ["PropertyType"], .enum, reso: .propertyType),
        ColumnRule("list_price", ["ListPrice"], .money, required: true, min: 0),
        ColumnRule("original_list_price", ["OriginalListPrice"], .money, min: 0),
        ColumnRule("close_price", ["ClosePrice"], .money, min: 0),
        ColumnRule("listing_contract_date", ["ListingContractDate"], .date),
        ColumnRule("modification_timestamp", ["ModificationTimestamp"], .timestamp),
        ColumnRule("bedrooms_total", ["BedroomsTotal", "Bedrooms"], .integer, min: 0, max: 200),
        ColumnRule("bathrooms_full", ["BathroomsFull", "BathsFull"], .integer, min: 0, max: 200),
        ColumnRule("bathrooms_half", ["BathroomsHalf", "BathsHalf"], .integer, min: 0, max: 200),
        ColumnRule("living_area", ["LivingArea", "SqFt"], .decimal, min: 0),
        ColumnRule("lot_size_square_feet", ["LotSizeSquareFeet"], .decimal, min: 0),
        ColumnRule("year_built", ["YearBuilt"], .integer, min: 1600, max: 2100),
        ColumnRule("street_number", ["StreetNumber"], .text),
        ColumnRule("street_name", ["StreetName"], .text),
        ColumnRule("unit_number", ["UnitNumber"], .text),
        ColumnRule("city", ["City"], .text),
        ColumnRule("state_or_province", ["StateOrProvince"], .text),
        ColumnRule("postal_code", ["PostalCode"], .postalCode),
        ColumnRule("county_or_parish", ["CountyOrParish"], .text),
        ColumnRule("mls_area", ["MLSAreaMajor"], .text),
        ColumnRule("latitude", ["Latitude"], .latitude),
        ColumnRule("longitude", ["Longitude"], .longitude),
        ColumnRule("public_remarks", ["PublicRemarks"], .text),
        ColumnRule("private_remarks", ["PrivateRemarks"], .text),
        ColumnRule("directions", ["Directions"], .text),
        ColumnRule("showing_instructions", ["ShowingInstructions"], .text),
        ColumnRule("owner_name", ["OwnerName"], .text),
        ColumnRule("list_agent_mls_id", ["ListAgentMlsId", "ListAgentAgentID"], .text),
        ColumnRule("list_office_mls_id", ["ListOfficeMlsId", "ListOfficeOfficeID"], .text),
        ColumnRule("list_office_name", ["ListOfficeName"], .text),
        ColumnRule("co_list_agent_mls_id", ["CoListAgentMlsId"], .text),
    ]

    /// Agent columns (`Member` fields, also those of an expanded `ListAgent`; RETS 1.x `Agent` names last).
    static let agent: [ColumnRule] = [
        ColumnRule("agent_mls_id", ["MemberMlsId", "AgentID"], .text, required: true),
        ColumnRule("first_name", ["MemberFirstName", "FirstName"], .text),
        ColumnRule("last_name", ["MemberLastName", "LastName"], .text),
        ColumnRule("office_mls_id", ["OfficeMlsId", "OfficeID"], .text),
        ColumnRule("office_name", ["OfficeName"], .text),
        ColumnRule("office_phone", ["MemberOfficePhone", "MemberDirectPhone"], .phone, readsAll: true),
        ColumnRule("mobile_phone", ["MemberMobilePhone"], .phone),
        ColumnRule("email", ["MemberEmail"], .email),
        ColumnRule("full_name", ["MemberFullName"], .text),
    ]

    /// The listing agent's columns from a listing's own fields (`ListAgentFirstName`, ...).
    static let listAgent: [ColumnRule] = [
        ColumnRule("agent_mls_id", ["ListAgentMlsId", "ListAgentAgentID"], .text),
        ColumnRule("first_name", ["ListAgentFirstName"], .text),
        ColumnRule("last_name", ["ListAgentLastName"], .text),
        ColumnRule("office_mls_id", ["ListOfficeMlsId", "ListOfficeOfficeID"], .text),
        ColumnRule("office_name", ["ListOfficeName"], .text),
        ColumnRule("office_phone", ["ListAgentOfficePhone", "ListAgentDirectPhone"], .phone, readsAll: true),
        ColumnRule("mobile_phone", ["ListAgentMobilePhone"], .phone),
        ColumnRule("email", ["ListAgentEmail"], .email),
        ColumnRule("full_name", ["ListAgentFullName"], .text),
    ]

    /// The listing agent columns that say something a listing column does not (a flat agent needs one of them).
    static let agentOnlyColumns: Set<String> = ["first_name", "last_name", "office_phone", "mobile_phone", "email",
                                                "full_name"]
}
