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
        switch entity {
        case .listing: return listing
        case .agent: return agent
        case .office: return office
        case .openHouse: return openHouse
        case .media: return media
        }
    }

    /// Listing columns (`Property` fields): RESO Data Dictionary names first, then RETS 1.x standard names, then
    /// names vendors' own fields often have (matched against a field's name or long name when it has no standard
    /// name). docs/mappings.md lists them (`MappingsDocTests`).
    static let listing: [ColumnRule] = [
        ColumnRule("listing_id", ["ListingId", "MLSNumber", "MLNumber", "MLSNum", "ListingNumber"], .text,
                   required: true),
        ColumnRule("standard_status", ["StandardStatus", "ListingStatus", "Status", "MlsStatus"], .enum,
                   required: true, reso: .standardStatus),
        ColumnRule("property_type", ["PropertyType", "PropType"], .enum, reso: .propertyType),
        ColumnRule("list_price", ["ListPrice", "AskingPrice", "CurrentPrice", "Price"], .money, required: true,
                   min: 0),
        ColumnRule("original_list_price", ["OriginalListPrice", "OrigListPrice", "OriginalPrice"], .money, min: 0),
        ColumnRule("close_price", ["ClosePrice", "SoldPrice", "SalePrice", "SellingPrice"], .money, min: 0),
        ColumnRule("listing_contract_date", ["ListingContractDate", "ListDate", "ListingDate"], .date),
        ColumnRule("modification_timestamp", ["ModificationTimestamp", "LastModifiedDateTime", "LastModified",
                                              "LastUpdate", "ModifiedDate"], .timestamp),
        ColumnRule("bedrooms_total", ["BedroomsTotal", "Bedrooms", "Beds", "BedsTotal"], .integer, min: 0, max: 200),
        // `Baths` (RETS 1.x) counts every bathroom: the full ones when nothing else says.
        ColumnRule("bathrooms_full", ["BathroomsFull", "BathsFull", "FullBaths", "FullBathrooms", "Baths"], .integer,
                   min: 0, max: 200),
        ColumnRule("bathrooms_half", ["BathroomsHalf", "BathsHalf", "HalfBaths", "HalfBathrooms"], .integer, min: 0,
                   max: 200),
        ColumnRule("living_area", ["LivingArea", "SqFt", "SquareFeet", "SqFtTotal", "LivingSqFt"], .decimal, min: 0),
        ColumnRule("lot_size_square_feet", ["LotSizeSquareFeet", "LotSqFt", "LotSizeSqFt"], .decimal, min: 0),
        ColumnRule("year_built", ["YearBuilt", "YrBuilt"], .integer, min: 1600, max: 2100),
        ColumnRule("street_number", ["StreetNumber", "StreetNum", "HouseNumber"], .text),
        ColumnRule("street_name", ["StreetName", "Street"], .text),
        ColumnRule("unit_number", ["UnitNumber", "Unit", "UnitNum"], .text),
        ColumnRule("city", ["City"], .text),
        ColumnRule("state_or_province", ["StateOrProvince", "State", "Province"], .text),
        ColumnRule("postal_code", ["PostalCode", "ZipCode", "Zip"], .postalCode),
        ColumnRule("county_or_parish", ["CountyOrParish", "County"], .text),
        ColumnRule("mls_area", ["MLSAreaMajor", "Area", "MLSArea"], .text),
        ColumnRule("latitude", ["Latitude", "Lat"], .latitude),
        ColumnRule("longitude", ["Longitude", "Long", "Lng", "Lon"], .longitude),
        ColumnRule("public_remarks", ["PublicRemarks", "Remarks", "MarketingRemarks"], .text),
        ColumnRule("private_remarks", ["PrivateRemarks", "AgentRemarks", "RealtorRemarks"], .text),
        ColumnRule("directions", ["Directions"], .text),
        ColumnRule("showing_instructions", ["ShowingInstructions"], .text),
        ColumnRule("owner_name", ["OwnerName", "Owner"], .text),
        ColumnRule("list_agent_mls_id", ["ListAgentMlsId", "ListAgentAgentID", "AgentID", "ListAgentID"], .text),
        ColumnRule("list_office_mls_id", ["ListOfficeMlsId", "ListOfficeOfficeID", "OfficeID", "ListOfficeID"],
                   .text),
        ColumnRule("list_office_name", ["ListOfficeName", "OfficeName"], .text),
        ColumnRule("co_list_agent_mls_id", ["CoListAgentMlsId", "CoListAgentAgentID", "CoListAgentID"], .text),
        ColumnRule("listing_key", ["ListingKey"], .text),
    ]

    /// Agent columns (`Member` fields, also those of an expanded `ListAgent`; RETS 1.x `Agent` names last).
    static let agent: [ColumnRule] = [
        ColumnRule("agent_mls_id", ["MemberMlsId", "AgentID", "MemberID"], .text, required: true),
        ColumnRule("first_name", ["MemberFirstName", "FirstName"], .text),
        ColumnRule("last_name", ["MemberLastName", "LastName"], .text),
        ColumnRule("office_mls_id", ["OfficeMlsId", "OfficeID"], .text),
        ColumnRule("office_name", ["OfficeName"], .text),
        ColumnRule("office_phone", ["MemberOfficePhone", "MemberDirectPhone", "OfficePhone", "DirectPhone"], .phone,
                   readsAll: true),
        ColumnRule("mobile_phone", ["MemberMobilePhone", "MobilePhone", "CellPhone"], .phone),
        ColumnRule("email", ["MemberEmail", "Email"], .email),
        ColumnRule("full_name", ["MemberFullName", "FullName"], .text),
    ]

    /// Office columns (`Office` fields, also those of an expanded `ListOffice`; RETS 1.x `Office` names last).
    static let office: [ColumnRule] = [
        ColumnRule("office_mls_id", ["OfficeMlsId", "OfficeID"], .text, required: true),
        ColumnRule("office_key", ["OfficeKey"], .text),
        ColumnRule("office_name", ["OfficeName"], .text),
        ColumnRule("phone", ["OfficePhone"], .phone),
        ColumnRule("email", ["OfficeEmail"], .email),
        ColumnRule("street_address", ["OfficeAddress1"], .text),
        ColumnRule("city", ["OfficeCity"], .text),
        ColumnRule("state_or_province", ["OfficeStateOrProvince"], .text),
        ColumnRule("postal_code", ["OfficePostalCode"], .postalCode),
        ColumnRule("modification_timestamp", ["ModificationTimestamp"], .timestamp),
    ]

    /// Open house columns (`OpenHouse` fields, also those of a listing's expanded `OpenHouse`).
    static let openHouse: [ColumnRule] = [
        ColumnRule("open_house_key", ["OpenHouseKey"], .text, required: true),
        ColumnRule("listing_id", ["ListingId", "ListingKey"], .text, required: true),
        ColumnRule("start_at", ["OpenHouseStartTime"], .timestamp),
        ColumnRule("end_at", ["OpenHouseEndTime"], .timestamp),
        ColumnRule("open_house_type", ["OpenHouseType"], .text),
        ColumnRule("status", ["OpenHouseStatus"], .text),
        ColumnRule("remarks", ["OpenHouseRemarks"], .text),
        ColumnRule("modification_timestamp", ["ModificationTimestamp"], .timestamp),
    ]

    /// Media columns (`Media` fields, also those of a listing's expanded `Media`).
    static let media: [ColumnRule] = [
        ColumnRule("media_key", ["MediaKey"], .text, required: true),
        ColumnRule("listing_id", ["ResourceRecordID", "ListingId", "ResourceRecordKey", "ListingKey"], .text,
                   required: true),
        ColumnRule("media_order", ["Order"], .integer, min: 0),
        ColumnRule("media_url", ["MediaURL"], .text),
        ColumnRule("media_category", ["MediaCategory"], .text),
        ColumnRule("short_description", ["ShortDescription"], .text),
        ColumnRule("modification_timestamp", ["MediaModificationTimestamp", "ModificationTimestamp"], .timestamp),
        ColumnRule("image_width", ["ImageWidth"], .integer, min: 0),
        ColumnRule("image_height", ["ImageHeight"], .integer, min: 0),
    ]

    /// An office a listing names by a prefix of its own fields (`ListOfficeMlsId`, `ListOfficeName`) and by a
    /// navigation property (`ListOffice`, expanded with `$expand`).
    struct OfficeRole: Sendable {
        /// The navigation property (`ListOffice`) and the listing column the office's id fills (`link:`), if any.
        var navigation: String
        var link: String?
        /// The office's columns from the listing's own fields.
        var rules: [ColumnRule]

        init(_ office: String, link: String?) {
            navigation = office
            self.link = link
            rules = [
                ColumnRule("office_mls_id", [office + "MlsId", office + "OfficeID"], .text),
                ColumnRule("office_key", [office + "Key"], .text),
                ColumnRule("office_name", [office + "Name"], .text),
                ColumnRule("phone", [office + "Phone"], .phone),
                ColumnRule("email", [office + "Email"], .email),
            ]
        }
    }

    /// The offices a listing names: the listing office (whose id fills `list_office_mls_id`), the co-listing
    /// office and the buyer's offices.
    static let officeRoles = [OfficeRole("ListOffice", link: "list_office_mls_id"),
                              OfficeRole("CoListOffice", link: nil), OfficeRole("BuyerOffice", link: nil),
                              OfficeRole("CoBuyerOffice", link: nil)]

    /// The office columns that say something a listing column does not (a flat office needs one of them).
    static let officeOnlyColumns: Set<String> = ["office_key", "phone", "email"]

    /// An agent a listing names by a prefix of its own fields (`ListAgentMlsId`, `ListOfficeName`) and by a
    /// navigation property (`ListAgent`, expanded with `$expand`).
    struct AgentRole: Sendable {
        /// The navigation property (`ListAgent`) and the listing column the agent's id fills (`link:`).
        var navigation: String
        var link: String
        /// The agent's columns from the listing's own fields.
        var rules: [ColumnRule]

        init(_ agent: String, office: String, link: String) {
            navigation = agent
            self.link = link
            rules = [
                ColumnRule("agent_mls_id", [agent + "MlsId", agent + "AgentID"], .text),
                ColumnRule("first_name", [agent + "FirstName"], .text),
                ColumnRule("last_name", [agent + "LastName"], .text),
                ColumnRule("office_mls_id", [office + "MlsId", office + "OfficeID"], .text),
                ColumnRule("office_name", [office + "Name"], .text),
                ColumnRule("office_phone", [agent + "OfficePhone", agent + "DirectPhone"], .phone, readsAll: true),
                ColumnRule("mobile_phone", [agent + "MobilePhone"], .phone),
                ColumnRule("email", [agent + "Email"], .email),
                ColumnRule("full_name", [agent + "FullName"], .text),
            ]
        }
    }

    /// The listing agent and the co-listing agent.
    static let agentRoles = [AgentRole("ListAgent", office: "ListOffice", link: "list_agent_mls_id"),
                             AgentRole("CoListAgent", office: "CoListOffice", link: "co_list_agent_mls_id")]

    /// The listing agent's columns from a listing's own fields (`ListAgentFirstName`, ...).
    static var listAgent: [ColumnRule] { agentRoles[0].rules }

    /// The listing agent columns that say something a listing column does not (a flat agent needs one of them).
    static let agentOnlyColumns: Set<String> = ["first_name", "last_name", "office_phone", "mobile_phone", "email",
                                                "full_name"]
}
