/// The orders of a detailed search, by their names in the SQL API (`search.detailed(sort => ...)`).
package enum SearchSort: String, Sendable, CaseIterable {
    /// Lowest list price first.
    case price = "price"
    /// Highest list price first.
    case priceDescending = "-price"
    /// Latest list date first.
    case newest = "newest"
    /// Most bedrooms first.
    case beds = "beds"
}
