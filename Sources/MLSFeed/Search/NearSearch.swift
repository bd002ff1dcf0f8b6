/// The criteria of `search.near`: a point, a radius and the shared filters.
package struct NearSearch: Sendable, Equatable {
    package var latitude: Double
    package var longitude: Double
    /// Statute miles, great circle.
    package var miles: Double
    package var filters = ListingFilters()
    /// 1-1000.
    package var limit = 20

    package init(latitude: Double, longitude: Double, miles: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.miles = miles
    }
}
