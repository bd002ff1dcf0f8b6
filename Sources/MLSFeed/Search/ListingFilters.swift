import Foundation

/// The criteria a detailed and a radius search share; nil means any.
package struct ListingFilters: Sendable, Equatable {
    /// RESO property type (`Residential`, `Land`, ...).
    package var propertyType: String?
    /// RESO standard status (`Active`, `Pending`, ...); `Withdrawn` also asks for withdrawn listings.
    package var status: String?
    package var minPrice: Decimal?
    package var maxPrice: Decimal?
    /// At least this many bedrooms.
    package var minBeds: Int?
    /// At least this many baths (full + half/2).
    package var minBaths: Decimal?
    /// At least this much living area, in square feet.
    package var minSqft: Decimal?
    /// Listed on or after this day.
    package var listedSince: SearchDate?
    /// Withdrawn and off-market listings too.
    package var includeWithdrawn = false

    package init() {}
}
