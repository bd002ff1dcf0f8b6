/// The criteria of `search.quick`: an address as a user types it.
package struct QuickSearch: Sendable, Equatable {
    /// Exact street number.
    package var streetNumber: String
    /// A case-insensitive prefix of the street name.
    package var streetName: String
    /// A case-insensitive part of the MLS area.
    package var area: String?
    package var status: String?
    /// 1-1000.
    package var limit = 20
    package var includeWithdrawn = false

    package init(streetNumber: String, streetName: String) {
        self.streetNumber = streetNumber
        self.streetName = streetName
    }
}
