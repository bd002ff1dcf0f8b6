/// The criteria of `search.detailed`: filters, place, order and page.
package struct DetailedSearch: Sendable, Equatable {
    package var filters = ListingFilters()
    /// Exact city name.
    package var city: String?
    /// A 5-digit ZIP; ZIP+4 codes match their ZIP.
    package var postalCode: String?
    package var sort = SearchSort.price
    /// The cursor of the previous page's last row, for the next page.
    package var after: String?
    /// 1-1000.
    package var limit = 20

    package init() {}
}
