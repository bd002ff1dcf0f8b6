import MLSFeed

/// The 80 keys a generated listing carries, in feed order: the servlet vocabulary (docs/formats.md), then vendor
/// extras.
enum FixtureField: Int, CaseIterable {
    case mlsNumber, status, propertyType, listPrice, origPrice, soldPrice, listDate, modified
    case bedrooms, fullBaths, halfBaths, sqft, lotSqft, yearBuilt
    case streetNumber, streetName, unit, city, state, zipcode, county, area, latitude, longitude
    case publicRemarks, realtorRemarks, directions, ftrToshow, ownerName
    case laId, laFirstName, laLastName, laCarPhone, laPhoneDirectOffice, laMemberEmail, loId, loName
    // Vendor extras: unknown to the shipped mapping, they land in `extra`.
    case soldDate, dom, cdom, pool, spa, view, hoaFee, hoaFrequency, schoolDistrict, elementarySchool, highSchool
    case garageSpaces, parkingTotal, roof, heating, cooling, zoning, apn, stories, fireplaces, laundry, flooring
    case appliances, exterior, sewer, water, construction, style, lotDescription, seniorCommunity, solar
    case taxRate, melloRoos, virtualTourURL, photoCount, subdivision, complexName, pricePerSqft, listingTerms
    case occupancy, crossStreet, mapCode, internetDisplay

    /// Source key, human label, and the RESO element name used by the plain `xml` format (nil: an extra).
    var spec: (key: String, label: String, reso: String?) {
        switch self {
        case .mlsNumber: return ("mls_number", "MLS #", "ListingId")
        case .status: return ("status", "Status", "StandardStatus")
        case .propertyType: return ("property_type", "Property Type", "PropertyType")
        case .listPrice: return ("list_price", "List Price", "ListPrice")
        case .origPrice: return ("orig_price", "Original Price", "OriginalListPrice")
        case .soldPrice: return ("sold_price", "Sold Price", "ClosePrice")
        case .listDate: return ("list_date", "List Date", "ListingContractDate")
        case .modified: return ("modified", "Last Modified", "ModificationTimestamp")
        case .bedrooms: return ("bedrooms", "Bedrooms", "BedroomsTotal")
        case .fullBaths: return ("full_baths", "Full Baths", "BathroomsFull")
        case .halfBaths: return ("half_baths", "Half Baths", "BathroomsHalf")
        case .sqft: return ("sqft", "Approx. Sq Ft", "LivingArea")
        case .lotSqft: return ("lot_sqft", "Lot Size (Sq Ft)", "LotSizeSquareFeet")
        case .yearBuilt: return ("year_built", "Year Built", "YearBuilt")
        case .streetNumber: return ("street_number", "Street #", "StreetNumber")
        case .streetName: return ("street_name", "Street Name", "StreetName")
        case .unit: return ("unit", "Unit #", "UnitNumber")
        case .city: return ("city", "City", "City")
        case .state: return ("state", "State", "StateOrProvince")
        case .zipcode: return ("zipcode", "Zip Code", "PostalCode")
        case .county: return ("county", "County", "CountyOrParish")
        case .area: return ("area", "MLS Area", "MLSAreaMajor")
        case .latitude: return ("latitude", "Latitude", "Latitude")
        case .longitude: return ("longitude", "Longitude", "Longitude")
        case .publicRemarks: return ("public_remarks", "Public Remarks", "PublicRemarks")
        case .realtorRemarks: return ("realtor_remarks", "Realtor Remarks", "PrivateRemarks")
        case .directions: return ("directions", "Directions", "Directions")
        case .ftrToshow: return ("ftr_toshow", "To Show", "ShowingInstructions")
        case .ownerName: return ("owner_name", "Owner Name", "OwnerName")
        case .laId: return ("la_id", "Listing Agent ID", "ListAgentMlsId")
        case .laFirstName: return ("la_first_name", "LA First Name", "ListAgentFirstName")
        case .laLastName: return ("la_last_name", "LA Last Name", "ListAgentLastName")
        case .laCarPhone: return ("la_car_phone", "LA Cell Phone", "ListAgentMobilePhone")
        case .laPhoneDirectOffice: return ("la_phone_direct_office", "LA Direct Office Phone", "ListAgentDirectPhone")
        case .laMemberEmail: return ("la_member_email", "LA Email", "ListAgentEmail")
        case .loId: return ("lo_id", "Listing Office ID", "ListOfficeMlsId")
        case .loName: return ("lo_name", "Listing Office", "ListOfficeName")
        case .soldDate: return ("sold_date", "Sold Date", nil)
        case .dom: return ("dom", "Days on Market", nil)
        case .cdom: return ("cdom", "Cumulative DOM", nil)
        case .pool: return ("pool", "Pool", nil)
        case .spa: return ("spa", "Spa", nil)
        case .view: return ("view", "View", nil)
        case .hoaFee: return ("hoa_fee", "HOA Fee", nil)
        case .hoaFrequency: return ("hoa_frequency", "HOA Frequency", nil)
        case .schoolDistrict: return ("school_district", "School District", nil)
        case .elementarySchool: return ("elementary_school", "Elementary School", nil)
        case .highSchool: return ("high_school", "High School", nil)
        case .garageSpaces: return ("garage_spaces", "Garage Spaces", nil)
        case .parkingTotal: return ("parking_total", "Total Parking", nil)
        case .roof: return ("roof", "Roof", nil)
        case .heating: return ("heating", "Heating", nil)
        case .cooling: return ("cooling", "Cooling", nil)
        case .zoning: return ("zoning", "Zoning", nil)
        case .apn: return ("apn", "APN", nil)
        case .stories: return ("stories", "Stories", nil)
        case .fireplaces: return ("fireplaces", "Fireplaces", nil)
        case .laundry: return ("laundry", "Laundry", nil)
        case .flooring: return ("flooring", "Flooring", nil)
        case .appliances: return ("appliances", "Appliances", nil)
        case .exterior: return ("exterior", "Exterior", nil)
        case .sewer: return ("sewer", "Sewer", nil)
        case .water: return ("water", "Water", nil)
        case .construction: return ("construction", "Construction", nil)
        case .style: return ("style", "Architectural Style", nil)
        case .lotDescription: return ("lot_desc", "Lot Description", nil)
        case .seniorCommunity: return ("senior_community", "Senior Community", nil)
        case .solar: return ("solar", "Solar", nil)
        case .taxRate: return ("tax_rate", "Tax Rate", nil)
        case .melloRoos: return ("mello_roos", "Mello-Roos", nil)
        case .virtualTourURL: return ("virtual_tour_url", "Virtual Tour", nil)
        case .photoCount: return ("photo_count", "Photo Count", nil)
        case .subdivision: return ("subdivision", "Subdivision", nil)
        case .complexName: return ("complex_name", "Complex Name", nil)
        case .pricePerSqft: return ("price_per_sqft", "$/Sq Ft", nil)
        case .listingTerms: return ("listing_terms", "Listing Terms", nil)
        case .occupancy: return ("occupancy", "Occupancy", nil)
        case .crossStreet: return ("cross_street", "Cross Street", nil)
        case .mapCode: return ("map_code", "Thomas Bros Map Code", nil)
        case .internetDisplay: return ("internet_display", "Internet Display", nil)
        }
    }

    static let count = allCases.count
    static let keys: [String] = allCases.map { $0.spec.key }
    static let labels: [String] = allCases.map { $0.spec.label }
    /// Element name in the plain `xml` format: the RESO name, or the source key for extras.
    static let elementNames: [String] = allCases.map { $0.spec.reso ?? $0.spec.key }
}
