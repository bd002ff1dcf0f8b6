import Foundation
import Postgres

/// The searches of the SQL API (schema `search`) over one connection, returning typed rows. The schema must be
/// current (`Migrations.requireCurrent`); the functions check their arguments again (SQLSTATE 22023).
package struct SearchQueries {
    package let connection: Connection

    package init(connection: Connection) {
        self.connection = connection
    }

    /// The listing with MLS number `listingID` of `source` (nil: of every source).
    package func listing(source: String?, listingID: String, includeWithdrawn: Bool = false,
                         mortgage: Mortgage? = nil) throws -> [SearchListing] {
        try listings(.listing(source: source, listingID: listingID, includeWithdrawn: includeWithdrawn,
                              mortgage: mortgage))
    }

    /// Listings at a street number on a street starting with a name.
    package func quick(_ search: QuickSearch, mortgage: Mortgage? = nil) throws -> [SearchListing] {
        try listings(.quick(search, mortgage: mortgage))
    }

    /// One page of a detailed search; the last row's `cursor` starts the next.
    package func detailed(_ search: DetailedSearch, mortgage: Mortgage? = nil) throws -> [SearchListing] {
        try listings(.detailed(search, mortgage: mortgage))
    }

    /// Listings within a radius, nearest first, with their distance.
    package func near(_ search: NearSearch, mortgage: Mortgage? = nil) throws -> [SearchListing] {
        try listings(.near(search, mortgage: mortgage))
    }

    /// Agents by name prefix and office.
    package func agents(_ search: AgentSearch) throws -> [SearchAgent] {
        let call = SearchCall.agents(search)
        return try connection.execute(call.sql, call.parameters).rows.map(SearchAgent.init(row:))
    }

    /// The monthly principal and interest of `price` under `mortgage`.
    package func monthlyPayment(price: Decimal, mortgage: Mortgage) throws -> Decimal? {
        let call = SearchCall.monthlyPayment(price: price, mortgage: mortgage)
        guard let text = try connection.execute(call.sql, call.parameters).rows.first?.first ?? nil else { return nil }
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }

    private func listings(_ call: SearchCall) throws -> [SearchListing] {
        try connection.execute(call.sql, call.parameters).rows.map(SearchListing.init(row:))
    }
}
