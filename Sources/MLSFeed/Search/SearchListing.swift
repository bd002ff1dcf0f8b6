import Foundation

/// A listing as the search functions return it (`search.listing_row`), with its listing agent's name and phones,
/// its first photo (and from `search.listing` its photos, open houses to come and office), and the monthly payment
/// when the search asked for one.
package struct SearchListing: Sendable, Equatable {
    package var source: String
    /// The MLS number.
    package var listingID: String
    package var status: String?
    package var propertyType: String?
    package var listPrice: Decimal?
    package var listDate: SearchDate?
    package var bedrooms: Int?
    package var bathsFull: Int?
    package var bathsHalf: Int?
    /// Square feet.
    package var livingArea: Decimal?
    package var yearBuilt: Int?
    package var streetNumber: String?
    package var streetName: String?
    package var unitNumber: String?
    package var city: String?
    package var state: String?
    package var postalCode: String?
    package var county: String?
    package var mlsArea: String?
    package var latitude: Double?
    package var longitude: Double?
    package var publicRemarks: String?
    package var officeID: String?
    package var officeName: String?
    package var agentID: String?
    package var agentFirstName: String?
    package var agentLastName: String?
    package var agentMobilePhone: String?
    package var agentOfficePhone: String?
    package var agentEmail: String?
    package var modified: Date?
    /// When a full dump stopped carrying the listing (it is then `Withdrawn`).
    package var offMarketAt: Date?
    /// From the searched point (`search.near` only).
    package var distanceMiles: Double?
    /// Where the next page starts (`search.detailed` only).
    package var cursor: String?
    /// The URL of its first photo (`photo_url`).
    package var photoURL: String?
    /// `search.listing` only: its photos in order, and its open houses to come, as the JSON arrays the function
    /// returns (`[{"media_url": ..., ...}]`).
    package var photosJSON: String?
    package var openHousesJSON: String?
    /// `search.listing` only: its office's name and phone, as `offices` has them.
    package var officeRecordName: String?
    package var officePhone: String?
    /// Principal and interest a month under the search's mortgage terms, when it had some.
    package var monthlyPayment: Decimal?

    /// The SELECT list `init(row:)` reads, over `search.<function>(...) r`, without the monthly payment.
    static let columns = """
        r.source, r.listing_id, r.standard_status, r.property_type, r.list_price::text, \
        to_char(r.listing_contract_date, 'YYYY-MM-DD'), r.bedrooms_total, r.bathrooms_full, r.bathrooms_half, \
        r.living_area::text, r.year_built, r.street_number, r.street_name, r.unit_number, r.city, \
        r.state_or_province, r.postal_code, r.county_or_parish, r.mls_area, r.latitude, r.longitude, \
        r.public_remarks, r.list_office_mls_id, r.list_office_name, r.list_agent_mls_id, r.agent_first_name, \
        r.agent_last_name, r.agent_mobile_phone, r.agent_office_phone, r.agent_email, \
        extract(epoch FROM r.modification_timestamp), extract(epoch FROM r.off_market_at), r.distance_miles, \
        r.cursor, r.photo_url, r.photos::text, r.open_houses::text, r.office_name, r.office_phone
        """

    /// A row of `columns`, then the monthly payment (or NULL).
    init(row: [String?]) {
        func decimal(_ i: Int) -> Decimal? { row[i].flatMap { Decimal(string: $0, locale: posix) } }
        func int(_ i: Int) -> Int? { row[i].flatMap { Int($0) } }
        func double(_ i: Int) -> Double? { row[i].flatMap { Double($0) } }
        func date(_ i: Int) -> Date? { double(i).map { Date(timeIntervalSince1970: $0) } }
        source = row[0] ?? ""
        listingID = row[1] ?? ""
        status = row[2]
        propertyType = row[3]
        listPrice = decimal(4)
        listDate = row[5].flatMap { SearchDate($0) }
        bedrooms = int(6)
        bathsFull = int(7)
        bathsHalf = int(8)
        livingArea = decimal(9)
        yearBuilt = int(10)
        streetNumber = row[11]
        streetName = row[12]
        unitNumber = row[13]
        city = row[14]
        state = row[15]
        postalCode = row[16]
        county = row[17]
        mlsArea = row[18]
        latitude = double(19)
        longitude = double(20)
        publicRemarks = row[21]
        officeID = row[22]
        officeName = row[23]
        agentID = row[24]
        agentFirstName = row[25]
        agentLastName = row[26]
        agentMobilePhone = row[27]
        agentOfficePhone = row[28]
        agentEmail = row[29]
        modified = date(30)
        offMarketAt = date(31)
        distanceMiles = double(32)
        cursor = row[33]
        photoURL = row[34]
        photosJSON = row[35]
        openHousesJSON = row[36]
        officeRecordName = row[37]
        officePhone = row[38]
        monthlyPayment = decimal(39)
    }
}

/// Decimal text from PostgreSQL always uses `.`.
private let posix = Locale(identifier: "en_US_POSIX")
