import Foundation
import MLSFeed
import Postgres
import PostgresTestSupport
import Testing

/// The domain side: calls built with parameters only, rows decoded into types, the mortgage spec.
@Suite(.ownThread) struct SearchQueriesTests {
    @Test func callsCarryValuesAsParametersOnly() {
        var search = DetailedSearch()
        search.filters.propertyType = "Residential'; DROP TABLE listings; --"
        search.city = "O'Brien Heights"
        search.sort = .newest
        let mortgage = Mortgage(downPaymentRatio: Decimal(string: "0.2")!, annualRatePercent: Decimal(string: "6.5")!,
                                years: 30)
        let call = SearchCall.detailed(search, mortgage: mortgage)
        #expect(!call.sql.contains("DROP") && !call.sql.contains("O'Brien") && !call.sql.contains("newest"))
        #expect(call.parameters.count == 17)
        #expect(call.parameters[0] == "Residential'; DROP TABLE listings; --")
        #expect(call.parameters[10] == "newest")
        #expect(Array(call.parameters.suffix(3)) == ["0.2", "6.5", "30"])
        #expect(call.sql.contains("search.monthly_payment(r.list_price, $15::numeric, $16::numeric, $17::integer)"))
    }

    @Test func detailedRowsDecodeIntoTypes() throws {
        let queries = SearchQueries(connection: try Connection(SearchFixture.small.get()))
        var search = DetailedSearch()
        search.filters.status = "Active"
        search.city = "San Diego"
        search.filters.minPrice = 400_000
        search.limit = 5
        let mortgage = try Mortgage(spec: "down=20%,rate=6.5,years=30")
        let page = try queries.detailed(search, mortgage: mortgage)
        #expect(page.count == 5)
        let first = try #require(page.first)
        #expect(first.status == "Active" && first.city == "San Diego")
        #expect(try #require(first.listPrice) >= 400_000)
        #expect(first.cursor != nil && first.distanceMiles == nil)
        let payment = try queries.monthlyPayment(price: try #require(first.listPrice), mortgage: mortgage)
        #expect(first.monthlyPayment == payment)
        #expect(try queries.monthlyPayment(price: 500_000, mortgage: mortgage) == Decimal(string: "2528.27"))
        search.after = page.last?.cursor
        let next = try queries.detailed(search)
        #expect(Set(next.map(\.listingID)).isDisjoint(with: page.map(\.listingID)))
        #expect(next.allSatisfy { $0.monthlyPayment == nil })
        #expect(try #require(next.first?.listPrice) >= page.last!.listPrice!)
    }

    @Test func listingRowsCarryEveryColumn() throws {
        let connection = try Connection(SearchFixture.small.get())
        let id = try connection.execute("""
            SELECT listing_id FROM listings WHERE standard_status = 'Active' AND latitude IS NOT NULL
              AND listing_contract_date IS NOT NULL AND property_type = 'Residential' ORDER BY listing_id LIMIT 1
            """).rows[0][0]!
        let row = try #require(try SearchQueries(connection: connection).listing(source: nil, listingID: id).first)
        let expected = try connection.execute("""
            SELECT list_price::text, listing_contract_date::text, bedrooms_total, latitude, agent.first_name,
                   agent.mobile_phone
            FROM listings l JOIN agents agent ON agent.agent_mls_id = l.list_agent_mls_id WHERE listing_id = $1
            """, [id]).rows[0]
        #expect(row.listingID == id && row.source == "sdmls")
        #expect(row.listPrice == Decimal(string: expected[0]!))
        #expect(row.listDate?.description == expected[1])
        #expect(row.bedrooms == Int(expected[2]!))
        #expect(row.latitude == Double(expected[3]!))
        #expect(row.agentFirstName == expected[4] && row.agentMobilePhone == expected[5])
        #expect(row.modified == nil && row.offMarketAt == nil)
    }

    @Test func agentsWithAQuoteInTheName() throws {
        let queries = SearchQueries(connection: try Connection(SearchFixture.small.get()))
        let agents = try queries.agents(AgentSearch(namePrefix: "o'br"))
        #expect(!agents.isEmpty)
        #expect(agents.allSatisfy { $0.lastName == "O'Brien" && $0.fullName?.hasSuffix(" O'Brien") != false })
    }

    @Test(arguments: [
        ("down=20%,rate=6.5,years=30", "0.2", "6.5", 30),
        ("years=15, rate=7.125%, down=0.1", "0.1", "7.125", 15),
        ("down=0%,rate=0,years=1", "0", "0", 1),
        ("down=100%,rate=100,years=100", "1", "100", 100),
    ])
    func mortgageSpecs(spec: String, down: String, rate: String, years: Int) throws {
        let mortgage = try Mortgage(spec: spec)
        #expect(mortgage == Mortgage(downPaymentRatio: Decimal(string: down)!,
                                     annualRatePercent: Decimal(string: rate)!, years: years))
    }

    @Test(arguments: [
        ("down=20%,rate=6.5", "years is missing (expected down=PERCENT,rate=PERCENT,years=N)"),
        ("down=20,rate=6.5,years=30", "down must be a percentage such as 20% or a ratio such as 0.2, got 20"),
        ("down=120%,rate=6.5,years=30", "down must be from 0% to 100%, got 120%"),
        ("down=20%,rate=-1,years=30", "rate must be a yearly percentage from 0 to 100, got -1"),
        ("down=20%,rate=6.5,years=0", "years must be a whole number from 1 to 100, got 0"),
        ("down=20%,rate=6.5,years=30,down=10%", "down is given twice"),
        ("20%/6.5/30", "expected down=PERCENT,rate=PERCENT,years=N, got \"20%/6.5/30\""),
    ])
    func badMortgageSpecs(spec: String, message: String) {
        #expect(throws: Mortgage.SpecError(message: message)) { try Mortgage(spec: spec) }
    }

    @Test(arguments: [("2026-02-28", true), ("2024-02-29", true), ("2026-02-29", false), ("2026-13-01", false),
                      ("2026-1-01", false), ("26-01-01", false), ("2026-01-01x", false), ("", false)])
    func searchDates(text: String, valid: Bool) {
        #expect((SearchDate(text)?.description == text) == valid)
    }
}
