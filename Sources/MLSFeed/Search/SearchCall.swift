import Foundation

/// One call of a `search` function as SQL text with `$n` placeholders and its parameters: values never enter the
/// text.
package struct SearchCall: Sendable, Equatable {
    package let sql: String
    package let parameters: [String?]

    /// `search.listing(source, listing_id, include_withdrawn)`.
    package static func listing(source: String?, listingID: String, includeWithdrawn: Bool,
                                mortgage: Mortgage?) -> SearchCall {
        var builder = Builder()
        let arguments = [builder.add(source, "text"), builder.add(listingID, "text"),
                         builder.add(includeWithdrawn, "boolean")]
        return builder.listings("search.listing(\(arguments.joined(separator: ", ")))", mortgage: mortgage)
    }

    /// `search.quick(street_number, street_name, area, status, lim, include_withdrawn)`.
    package static func quick(_ search: QuickSearch, mortgage: Mortgage?) -> SearchCall {
        var builder = Builder()
        let arguments = [
            builder.add(search.streetNumber, "text"), builder.add(search.streetName, "text"),
            builder.add(search.area, "text"), builder.add(search.status, "text"), builder.add(search.limit, "integer"),
            builder.add(search.includeWithdrawn, "boolean"),
        ]
        return builder.listings("search.quick(\(arguments.joined(separator: ", ")))", mortgage: mortgage)
    }

    /// `search.detailed(...)`, every argument by name.
    package static func detailed(_ search: DetailedSearch, mortgage: Mortgage?) -> SearchCall {
        var builder = Builder()
        let f = search.filters
        let arguments = [
            "property_type => " + builder.add(f.propertyType, "text"), "status => " + builder.add(f.status, "text"),
            "city => " + builder.add(search.city, "text"), "postal_code => " + builder.add(search.postalCode, "text"),
            "min_price => " + builder.add(f.minPrice, "numeric"), "max_price => " + builder.add(f.maxPrice, "numeric"),
            "min_beds => " + builder.add(f.minBeds, "integer"), "min_baths => " + builder.add(f.minBaths, "numeric"),
            "min_sqft => " + builder.add(f.minSqft, "numeric"),
            "listed_since => " + builder.add(f.listedSince?.description, "date"),
            "sort => " + builder.add(search.sort.rawValue, "text"), "after => " + builder.add(search.after, "text"),
            "lim => " + builder.add(search.limit, "integer"),
            "include_withdrawn => " + builder.add(f.includeWithdrawn, "boolean"),
        ]
        return builder.listings("search.detailed(\(arguments.joined(separator: ", ")))", mortgage: mortgage)
    }

    /// `search.near(lat, lon, miles, ...)`, the criteria by name.
    package static func near(_ search: NearSearch, mortgage: Mortgage?) -> SearchCall {
        var builder = Builder()
        let f = search.filters
        let arguments = [
            builder.add(search.latitude, "double precision"), builder.add(search.longitude, "double precision"),
            builder.add(search.miles, "double precision"),
            "property_type => " + builder.add(f.propertyType, "text"), "status => " + builder.add(f.status, "text"),
            "min_price => " + builder.add(f.minPrice, "numeric"), "max_price => " + builder.add(f.maxPrice, "numeric"),
            "min_beds => " + builder.add(f.minBeds, "integer"), "min_baths => " + builder.add(f.minBaths, "numeric"),
            "min_sqft => " + builder.add(f.minSqft, "numeric"),
            "listed_since => " + builder.add(f.listedSince?.description, "date"),
            "lim => " + builder.add(search.limit, "integer"),
            "include_withdrawn => " + builder.add(f.includeWithdrawn, "boolean"),
        ]
        return builder.listings("search.near(\(arguments.joined(separator: ", ")))", mortgage: mortgage)
    }

    /// `search.agents(name_prefix, office_mls_id, lim)`.
    package static func agents(_ search: AgentSearch) -> SearchCall {
        var builder = Builder()
        let arguments = [builder.add(search.namePrefix, "text"), builder.add(search.officeID, "text"),
                         builder.add(search.limit, "integer")]
        let call = "search.agents(\(arguments.joined(separator: ", ")))"
        return SearchCall(sql: "SELECT \(SearchAgent.columns) FROM \(call) r", parameters: builder.parameters)
    }

    /// `search.monthly_payment(price, down_payment_ratio, annual_rate_percent, years)`.
    package static func monthlyPayment(price: Decimal, mortgage: Mortgage) -> SearchCall {
        var builder = Builder()
        let arguments = [builder.add(price, "numeric")] + builder.add(mortgage)
        return SearchCall(sql: "SELECT search.monthly_payment(\(arguments.joined(separator: ", ")))::text",
                          parameters: builder.parameters)
    }

    /// Numbers the parameters in order of addition, each with an explicit type.
    private struct Builder {
        var parameters: [String?] = []

        /// `$n::type` for `value` (nil: NULL).
        mutating func add(_ value: String?, _ type: String) -> String {
            parameters.append(value)
            return "$\(parameters.count)::\(type)"
        }

        mutating func add(_ value: Decimal?, _ type: String) -> String { add(value.map { "\($0)" }, type) }
        mutating func add(_ value: Int?, _ type: String) -> String { add(value.map(String.init), type) }
        mutating func add(_ value: Double, _ type: String) -> String { add("\(value)", type) }
        mutating func add(_ value: Bool, _ type: String) -> String { add(value ? "true" : "false", type) }

        /// The mortgage terms as the last three arguments of `search.monthly_payment`.
        mutating func add(_ mortgage: Mortgage) -> [String] {
            [add(mortgage.downPaymentRatio, "numeric"), add(mortgage.annualRatePercent, "numeric"),
             add(mortgage.years, "integer")]
        }

        /// The listing columns of `call` (a `search` function returning `search.listing_row`), then the monthly
        /// payment of each under `mortgage` (NULL without one).
        mutating func listings(_ call: String, mortgage: Mortgage?) -> SearchCall {
            var payment = "NULL::text"
            if let mortgage {
                payment = "search.monthly_payment(r.list_price, \(add(mortgage).joined(separator: ", ")))::text"
            }
            return SearchCall(sql: "SELECT \(SearchListing.columns), \(payment) FROM \(call) r", parameters: parameters)
        }
    }
}
