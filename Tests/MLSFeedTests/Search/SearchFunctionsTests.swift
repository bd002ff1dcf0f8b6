import Foundation
import MLSFeed
import Postgres
import PostgresTestSupport
import Testing

/// The SQL search API against independent queries written here, on `SearchFixture.small`.
@Suite(.ownThread) struct SearchFunctionsTests {
    /// Criteria of a detailed search, with the independent query they stand for.
    struct Criteria: CustomTestStringConvertible, Sendable {
        var type: String?
        var status: String?
        var city: String?
        var zip: String?
        var minPrice: String?
        var maxPrice: String?
        var beds: Int?
        var baths: String?
        var sqft: String?
        var since: String?
        var includeWithdrawn = false
        var sort = "price"

        var testDescription: String {
            let given: [(String, String?)] = [
                ("type", type), ("status", status), ("city", city), ("zip", zip), ("min", minPrice),
                ("max", maxPrice), ("beds", beds.map(String.init)), ("baths", baths), ("sqft", sqft),
                ("since", since), ("withdrawn", includeWithdrawn ? "yes" : nil),
            ]
            return "sort \(sort): " + given.compactMap { k, v in v.map { "\(k)=\($0)" } }.joined(separator: " ")
        }

        /// `search.detailed(...)` with every argument as a parameter, then `after`, `lim`.
        func call(after: String?, lim: Int) -> (String, [String?]) {
            ("""
            SELECT listing_id, cursor FROM search.detailed(
                property_type => $1, status => $2, city => $3, postal_code => $4, min_price => $5::numeric,
                max_price => $6::numeric, min_beds => $7::integer, min_baths => $8::numeric, min_sqft => $9::numeric,
                listed_since => $10::date, sort => $11, after => $12, lim => $13::integer,
                include_withdrawn => $14::boolean)
            """, [type, status, city, zip, minPrice, maxPrice, beds.map(String.init), baths, sqft, since, sort, after,
                  String(lim), includeWithdrawn ? "true" : "false"])
        }

        /// The same search as a plain query of `listings`.
        func independent(limit: Int) -> (String, [String?]) {
            var conditions: [String] = []
            var parameters: [String?] = []
            func add(_ condition: String, _ value: String?) {
                guard let value else { return }
                parameters.append(value)
                conditions.append(condition.replacingOccurrences(of: "?", with: "$\(parameters.count)"))
            }
            if !includeWithdrawn && status != "Withdrawn" {
                conditions.append("off_market_at IS NULL AND standard_status IS DISTINCT FROM 'Withdrawn'")
            }
            add("property_type = ?", type)
            add("standard_status = ?", status)
            add("city = ?", city)
            add("left(postal_code, 5) = ?", zip)
            add("list_price >= ?::numeric", minPrice)
            add("list_price <= ?::numeric", maxPrice)
            add("bedrooms_total >= ?::integer", beds.map(String.init))
            add("coalesce(bathrooms_full, 0) + coalesce(bathrooms_half, 0) / 2.0 >= ?::numeric", baths)
            add("living_area >= ?::numeric", sqft)
            add("listing_contract_date >= ?::date", since)
            let order = [
                "price": "list_price ASC NULLS LAST, source, listing_id",
                "-price": "list_price DESC NULLS FIRST, source DESC, listing_id DESC",
                "newest": "listing_contract_date DESC NULLS LAST, source DESC, listing_id DESC",
                "beds": "bedrooms_total DESC NULLS LAST, source DESC, listing_id DESC",
            ][sort]!
            let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            return ("SELECT listing_id FROM listings \(filter) ORDER BY \(order) LIMIT \(limit)", parameters)
        }
    }

    static let detailedCases: [Criteria] = {
        var cases: [Criteria] = []
        for sort in ["price", "-price", "newest", "beds"] {
            cases.append(Criteria(sort: sort))
            cases.append(Criteria(type: "Residential", status: "Active", city: "San Diego", minPrice: "300000",
                                  maxPrice: "1800000", beds: 3, sort: sort))
        }
        cases += [
            Criteria(zip: "92103", sort: "price"),
            Criteria(zip: "92103", sort: "newest"),
            Criteria(type: "Land", city: "Julian", zip: "92036", sort: "price"),
            Criteria(status: "Withdrawn", sort: "newest"),
            Criteria(minPrice: "2000000", includeWithdrawn: true, sort: "-price"),
            Criteria(maxPrice: "400000", sort: "-price"),
            Criteria(baths: "2.5", sqft: "2500", since: "2026-06-01", sort: "newest"),
            Criteria(baths: "1.5", since: "2026-01-15", sort: "beds"),
            Criteria(type: "ResidentialIncome", status: "Pending", sort: "beds"),
            Criteria(city: "Oceanside", beds: 0, includeWithdrawn: true, sort: "price"),
            // 6 statuses ('' too) × 3 ZIPs: more groups than one merged statement reads.
            Criteria(city: "San Diego", includeWithdrawn: true, sort: "newest"),
            Criteria(city: "San Diego", includeWithdrawn: true, sort: "-price"),
        ]
        return cases
    }()

    @Test(arguments: detailedCases)
    func detailedPagesFollowTheIndependentQuery(criteria: Criteria) throws {
        let connection = try Connection(SearchFixture.small.get())
        let lim = 7
        var pages: [[String]] = []
        var after: String?
        for _ in 0..<3 {
            let (sql, parameters) = criteria.call(after: after, lim: lim)
            let rows = try connection.execute(sql, parameters).rows
            pages.append(rows.map { $0[0]! })
            after = rows.last?[1]
            if rows.count < lim { break }
        }
        let (sql, parameters) = criteria.independent(limit: 3 * lim)
        let expected = try connection.execute(sql, parameters).rows.map { $0[0]! }
        let got = pages.flatMap { $0 }
        #expect(!expected.isEmpty)
        #expect(got == expected)
        #expect(Set(got).count == got.count)
        #expect(pages.dropLast().allSatisfy { $0.count == lim })
    }

    @Test func detailedCountsEveryMatchOnceAcrossAllPages() throws {
        let connection = try Connection(SearchFixture.small.get())
        let criteria = Criteria(type: "Residential", status: "Active", city: "Escondido", minPrice: "500000",
                                sort: "newest")
        var got: [String] = []
        var after: String?
        repeat {
            let (sql, parameters) = criteria.call(after: after, lim: 50)
            let rows = try connection.execute(sql, parameters).rows
            got += rows.map { $0[0]! }
            after = rows.count == 50 ? rows.last?[1] : nil
        } while after != nil
        let (sql, parameters) = criteria.independent(limit: 100_000)
        #expect(got == (try connection.execute(sql, parameters).rows.map { $0[0]! }))
        #expect(got.count > 100)
    }

    @Test(arguments: [
        ("SELECT * FROM search.detailed(sort => 'cheap')",
         "search.detailed: sort must be price, -price, newest or beds, not 'cheap'"),
        ("SELECT * FROM search.detailed(lim => 0)", "search.detailed: lim must be between 1 and 1000, not 0"),
        ("SELECT * FROM search.detailed(min_price => 900000, max_price => 500000)",
         "search.detailed: min_price 900000 is greater than max_price 500000"),
        ("SELECT * FROM search.detailed(after => 'not-a-cursor')",
         "search.detailed: after is not a cursor returned by search.detailed"),
        ("SELECT * FROM search.detailed(sort => 'beds', after => (SELECT cursor FROM search.detailed(lim => 1)))",
         "search.detailed: the cursor comes from a search sorted by price, not beds"),
        ("SELECT * FROM search.near(32.7, -117.1, -1)", "search.near: miles must be between 0 and 12500, not -1"),
        ("SELECT * FROM search.near(91, -117.1, 2)", "search.near: lat must be between -90 and 90, not 91"),
        ("SELECT * FROM search.near(32.7, -117.1, 2, min_price => 2, max_price => 1)",
         "search.near: min_price 2 is greater than max_price 1"),
        ("SELECT * FROM search.quick(NULL, 'Elm')", "search.quick: street_number and street_name are required"),
        ("SELECT * FROM search.agents()", "search.agents: give name_prefix, office_mls_id or both"),
        ("SELECT * FROM search.listing('sdmls', NULL)", "search.listing: listing_id is required"),
        ("SELECT search.monthly_payment(500000, 1.5, 6.5, 30)",
         "search.monthly_payment: down_payment_ratio must be between 0 and 1"),
        ("SELECT search.monthly_payment(500000, 0.2, 6.5, 0)",
         "search.monthly_payment: years must be between 1 and 100"),
    ])
    func badArgumentsAreInvalidParameterValues(sql: String, message: String) throws {
        let connection = try Connection(SearchFixture.small.get())
        do {
            try connection.execute(sql)
            Issue.record("no error for \(sql)")
        } catch let error as PostgresError {
            #expect(error.code == SQLState(code: "22023"))
            #expect(error.message == message)
        }
    }

    @Test(arguments: [
        ("112", "el", nil as String?, nil as String?),
        ("130", "UNIVERSITY", nil, "Active"),
        ("145", "úRSULA", nil, nil),
        ("120", "", "la jolla", nil),
        ("101", "5th", "san diego", nil),
    ])
    func quickFollowsTheIndependentQuery(number: String, name: String, area: String?, status: String?) throws {
        let connection = try Connection(SearchFixture.small.get())
        let got = try connection.execute(
            "SELECT listing_id FROM search.quick($1, $2, $3, $4, 1000)", [number, name, area, status]
        ).rows.map { $0[0]! }
        // Street names by their own spelling (the fixture's differ in their first letters' case only for Ú).
        let streets = try connection.execute("SELECT DISTINCT street_name FROM listings").rows.map { $0[0]! }
            .filter { $0.lowercased().hasPrefix(name.lowercased()) }
        let expected = try connection.execute("""
            SELECT listing_id FROM listings
            WHERE street_number = $1 AND street_name = ANY($2::text[])
              AND ($3::text IS NULL OR strpos(lower(mls_area), lower($3)) > 0)
              AND ($4::text IS NULL OR standard_status = $4)
              AND off_market_at IS NULL AND standard_status IS DISTINCT FROM 'Withdrawn'
            ORDER BY lower(street_name), source, listing_id
            """, [number, "{" + streets.map { "\"\($0)\"" }.joined(separator: ",") + "}", area, status]
        ).rows.map { $0[0]! }
        #expect(!expected.isEmpty)
        #expect(got == expected)
    }

    @Test(arguments: [
        ("smi" as String?, nil as String?), ("ann", nil), ("ana m", nil), ("ÁNGEL", nil), ("ángel sm", nil),
        ("óscar", nil),
        ("o'brien", nil), ("álv", nil), ("%", nil), ("_", nil), ("zz", nil), (nil, "OF3"), ("an", "OF4"),
    ])
    func agentsFollowTheIndependentQuery(prefix: String?, office: String?) throws {
        let connection = try Connection(SearchFixture.small.get())
        let got = try connection.execute("SELECT agent_mls_id, full_name FROM search.agents($1, $2, 1000)",
                                         [prefix, office]).rows
        let all = try connection.execute("SELECT agent_mls_id, first_name, last_name, office_mls_id FROM agents").rows
        let wanted = all.filter { row in
            let first = row[1] ?? "", last = row[2] ?? ""
            let nameMatches = prefix.map { p in
                [last, first + " " + last].contains { $0.lowercased().hasPrefix(p.lowercased()) }
            } ?? true
            return nameMatches && (office == nil || row[3] == office)
        }.map { $0[0]! }
        let expected = try connection.execute("""
            SELECT agent_mls_id FROM agents WHERE agent_mls_id = ANY($1::text[])
            ORDER BY lower(last_name COLLATE "und-x-icu"), lower(first_name COLLATE "und-x-icu"), source, agent_mls_id
            """, ["{" + wanted.joined(separator: ",") + "}"]).rows.map { $0[0]! }
        #expect(got.map { $0[0]! } == expected)
        if ["%", "_", "zz"].contains(prefix) {
            #expect(got.isEmpty)
        } else {
            #expect(!got.isEmpty)
        }
    }

    @Test(arguments: [
        (32.7157, -117.1611, 2.0, nil as String?, nil as String?, 20),
        (32.7157, -117.1611, 4.0, "Residential", "Active", 25),
        (33.0786, -116.6020, 3.0, "Land", nil, 10),
        (33.1192, -117.0864, 0.3, nil, "Pending", 50),
        (32.80, -117.00, 0.05, nil, nil, 20),
        (32.7157, -117.1611, 30.0, nil, "Withdrawn", 30),
        (32.80, -117.10, 1.0, nil, "Active", 40),
        (33.1581, -117.3506, 25.0, "Land", "Active", 15),
    ])
    func nearFollowsEarthdistance(lat: Double, lon: Double, miles: Double, type: String?, status: String?,
                                  lim: Int) throws {
        let connection = try Connection(SearchFixture.small.get())
        let got = try connection.execute("""
            SELECT listing_id, distance_miles FROM search.near($1, $2, $3, property_type => $4, status => $5,
                                                               lim => $6::integer)
            """, [String(lat), String(lon), String(miles), type, status, String(lim)]).rows
        let expected = try connection.execute("""
            SELECT listing_id, point(longitude, latitude) <@> point($2, $1) AS miles,
                   earth_distance(ll_to_earth(latitude, longitude), ll_to_earth($1, $2)) / 1609.344
            FROM listings
            WHERE latitude IS NOT NULL AND longitude IS NOT NULL
              AND point(longitude, latitude) <@> point($2, $1) <= $3
              AND ($4::text IS NULL OR property_type = $4) AND ($5::text IS NULL OR standard_status = $5)
              AND ($5 = 'Withdrawn' OR (off_market_at IS NULL AND standard_status IS DISTINCT FROM 'Withdrawn'))
            ORDER BY 2, source, listing_id LIMIT $6
            """, [String(lat), String(lon), String(miles), type, status, String(lim)]).rows
        #expect(got.map { $0[0] } == expected.map { $0[0] })
        for (row, check) in zip(got, expected) {
            let distance = Double(row[1]!)!
            #expect(abs(distance - Double(check[1]!)!) < 0.01)
            if miles <= 5 { #expect(abs(distance - Double(check[2]!)!) < 0.01) }
            #expect(distance <= miles)
        }
        if miles >= 2 { #expect(got.count == lim) }
    }

    @Test(arguments: [(32.7, -117.1, 2.0), (60.0, 179.99, 10.0), (-45.0, -179.9, 40.0), (89.99, 0.0, 5.0),
                      (-33.9, 151.2, 100.0), (0.0, 0.0, 3000.0), (10.0, 20.0, 0.0)])
    func boundingBoxHoldsTheCircle(lat: Double, lon: Double, miles: Double) throws {
        let connection = try Connection(SearchFixture.small.get())
        let radius = 3958.747716, delta = miles * 0.999_999 / radius
        let phi = lat * .pi / 180, lambda = lon * .pi / 180
        for bearing in stride(from: 0.0, to: 360.0, by: 7.5) {
            let theta = bearing * .pi / 180
            let phi2 = asin(sin(phi) * cos(delta) + cos(phi) * sin(delta) * cos(theta))
            var lon2 = (lambda + atan2(sin(theta) * sin(delta) * cos(phi), cos(delta) - sin(phi) * sin(phi2)))
                * 180 / .pi
            lon2 = lon2 > 180 ? lon2 - 360 : lon2 < -180 ? lon2 + 360 : lon2
            let lat2 = phi2 * 180 / .pi
            let inside = try connection.execute("""
                SELECT point($4, $3) <@ search_internal.bounding_box($1, $2, $5),
                       point($4, $3) <@> point($2, $1) <= $5
                """, [String(lat), String(lon), String(lat2), String(lon2), String(miles)]).rows[0]
            #expect(inside == ["t", "t"], "bearing \(bearing): (\(lat2), \(lon2))")
        }
    }

    @Test func monthlyPaymentIsPrincipalAndInterest() throws {
        let connection = try Connection(SearchFixture.small.get())
        func payment(_ arguments: [String?]) throws -> String? {
            try connection.execute(
                "SELECT search.monthly_payment($1::numeric, $2::numeric, $3::numeric, $4::integer)::text", arguments
            ).rows[0][0]
        }
        #expect(try payment(["500000", "0.2", "6.5", "30"]) == "2528.27")
        #expect(try payment(["500000", "0.2", "0", "30"]) == "1111.11")
        #expect(try payment(["500000", "1", "6.5", "30"]) == "0.00")
        #expect(try payment([nil, "0.2", "6.5", "30"]) == nil)
        // An independent annuity formula, to the cent.
        let loan = 743_500.0 * 0.9, rate = 7.125 / 1200, months = 15.0 * 12
        let expected = loan * rate / (1 - pow(1 + rate, -months))
        #expect(abs(Double(try payment(["743500", "0.1", "7.125", "15"])!)! - expected) < 0.006)
    }

    @Test func withdrawnListingsOnlyWhenAskedFor() throws {
        let connection = try Connection(SearchFixture.small.get())
        let withdrawn = try connection.execute("""
            SELECT source, listing_id, street_number, street_name, latitude, longitude FROM listings
            WHERE standard_status = 'Withdrawn' AND off_market_at IS NOT NULL AND latitude IS NOT NULL
            ORDER BY listing_id LIMIT 1
            """).rows[0]
        let (source, id, number, street) = (withdrawn[0]!, withdrawn[1]!, withdrawn[2]!, withdrawn[3]!)
        func count(_ sql: String, _ parameters: [String?]) throws -> Int {
            try connection.execute("SELECT count(*) FROM (\(sql)) s WHERE listing_id = $\(parameters.count + 1)",
                                   parameters + [id]).rows[0][0].flatMap { Int($0) }!
        }
        #expect(try count("SELECT * FROM search.listing($1, $2)", [source, id]) == 0)
        #expect(try count("SELECT * FROM search.listing($1, $2, true)", [source, id]) == 1)
        #expect(try count("SELECT * FROM search.quick($1, $2, lim => 1000)", [number, street]) == 0)
        #expect(try count("SELECT * FROM search.quick($1, $2, lim => 1000, include_withdrawn => true)",
                          [number, street]) == 1)
        #expect(try count("SELECT * FROM search.quick($1, $2, status => 'Withdrawn', lim => 1000)",
                          [number, street]) == 1)
        let near = "SELECT * FROM search.near($1::float8, $2::float8, 0.01, lim => 1000"
        #expect(try count(near + ")", [withdrawn[4], withdrawn[5]]) == 0)
        #expect(try count(near + ", include_withdrawn => true)", [withdrawn[4], withdrawn[5]]) == 1)
    }

    @Test func activeListingsOffTheMarketOnlyWhenAskedFor() throws {
        // A listing a full dump stopped carrying keeps its last status: `Active`, off the market. `near` reads the
        // location index of the active listings for an `Active` search, and that index holds it too.
        let connection = try Connection(SearchFixture.small.get())
        try connection.execute("BEGIN")
        defer { _ = try? connection.execute("ROLLBACK") }
        let row = try connection.execute("""
            UPDATE listings SET off_market_at = timestamptz '2026-11-01 00:00:00+00'
            WHERE (source, listing_id) = (SELECT source, listing_id FROM listings
                                          WHERE standard_status = 'Active' AND latitude IS NOT NULL
                                          ORDER BY listing_id LIMIT 1)
            RETURNING listing_id, latitude::text, longitude::text
            """).rows[0]
        func found(_ criteria: String) throws -> Bool {
            try connection.execute("""
                SELECT count(*) FROM search.near($1::float8, $2::float8, 0.01, lim => 1000\(criteria))
                WHERE listing_id = $3
                """, [row[1], row[2], row[0]]).rows[0][0] == "1"
        }
        #expect(try !found(", status => 'Active'"))
        #expect(try found(", status => 'Active', include_withdrawn => true"))
        #expect(try !found(""))
        #expect(try found(", include_withdrawn => true"))
    }

    @Test func listingsAreVacuumedAfterANightlyDelta() throws {
        // The covering indexes need the visibility map: autovacuum after 2% of the listings changed, not 20%.
        let options = try Connection(SearchFixture.small.get())
            .execute("SELECT reloptions FROM pg_class WHERE oid = 'listings'::regclass").rows
        #expect(options == [["{autovacuum_vacuum_scale_factor=0.02,autovacuum_analyze_scale_factor=0.02}"]])
    }

    @Test func listingFindsEverySourceOfAnMLSNumber() throws {
        let db = try TestDatabase.migrated()
        let connection = try Connection(db)
        try Migrations.apply(connection)
        try connection.execute("""
            INSERT INTO listings (source, listing_id, standard_status, list_price, city, list_agent_mls_id,
                                  content_hash, first_seen_run, last_changed_run)
            VALUES ('b', '0042', 'Active', 100, 'X', 'A1', 'h', 1, 1),
                   ('a', '0042', 'Pending', 200, 'Y', NULL, 'h', 1, 1),
                   ('a', '42', 'Active', 300, 'Z', NULL, 'h', 1, 1)
            """)
        try connection.execute("""
            INSERT INTO agents (source, agent_mls_id, first_name, last_name, mobile_phone, office_phone, content_hash,
                                first_seen_run, last_changed_run)
            VALUES ('b', 'A1', 'Ann', 'Lee', '(619) 555-0101', '(619) 555-0199', 'h', 1, 1)
            """)
        let all = try connection.execute("""
            SELECT source, list_price::text, agent_first_name, agent_mobile_phone FROM search.listing(NULL, ' 0042 ')
            """).rows
        #expect(all == [["a", "200.00", nil, nil], ["b", "100.00", "Ann", "(619) 555-0101"]])
        let one = try connection.execute("SELECT listing_id FROM search.listing('a', '42')").rows
        #expect(one == [["42"]])
    }
}
