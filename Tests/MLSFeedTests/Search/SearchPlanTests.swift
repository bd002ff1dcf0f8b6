import Foundation
import MLSFeed
import Postgres
import PostgresTestSupport
import Testing

/// The search functions' plans at 1M listings (and 100k agents): index scans only, never a sequential scan of
/// `listings`, on the indexes migrations 8, 10 and 11 made for them, and no index that no search uses.
///
/// Real plans on real sizes: the table is filled with `SearchFixture` (1M rows by `INSERT ... SELECT
/// generate_series`, indexes built after the insert, then `VACUUM ANALYZE`); no planner cost setting is changed.
/// Each `search` function checks its arguments and runs statements of `search_internal` with cached generic
/// plans (`plan_cache_mode = force_generic_plan`): that statement is prepared with parameters and read with the same
/// setting, so the test sees the plan the function runs with. Last, every function runs in one transaction and the
/// table's own counters (`pg_stat_xact_user_tables`) must show no sequential scan and few rows fetched, whatever the
/// plans say.
@Suite(.ownThread, .serialized, .enabled(if: SlowTests.enabled, "1M listings: MLSFEED_SLOW_TESTS=1"))
struct SearchPlanTests {
    static let million: Result<String, any Error> = Result {
        try SearchFixture.make(listings: 1_000_000, agents: 100_000, fast: true)
    }

    private func plan(_ connection: Connection, _ sql: String, _ parameters: [String?] = []) throws -> String {
        try connection.execute("EXPLAIN " + sql, parameters).rows.compactMap { $0[0] }.joined(separator: "\n")
    }

    /// The plan `function` runs with inside its PL/pgSQL wrapper: generic, for parameters of `types`.
    private func genericPlan(_ connection: Connection, _ function: String, _ types: [String],
                             _ arguments: String) throws -> String {
        try connection.execute("SET plan_cache_mode = force_generic_plan")
        let name = function.replacingOccurrences(of: ".", with: "_")
        let parameters = types.indices.map { "$\($0 + 1)" }.joined(separator: ", ")
        try connection.execute("PREPARE \(name)(\(types.joined(separator: ", "))) AS "
                               + "SELECT * FROM \(function)(\(parameters))")
        return try plan(connection, "EXECUTE \(name)(\(arguments))")
    }

    @Test(arguments: [
        ("search_internal.listing_rows", ["text", "text", "boolean"], "'sdmls', '00012345', false",
         ["listings_listing_id_idx", "Index Cond: (listing_id = $2)"]),
        ("search_internal.quick_rows", ["text", "text", "text", "text", "text", "integer", "boolean"],
         "'120', 'elm', 'eln', NULL, 'Active', 20, false",
         ["listings_street_idx", "Index Cond: ((street_number = $1) AND (lower((street_name)::text) ~>=~ $2) "
            + "AND (lower((street_name)::text) ~<~ $3))"]),
        ("search_internal.agents_rows", ["text", "text", "text", "integer"], "'smi', 'smj', NULL, 20",
         ["agents_last_name_idx", "agents_full_name_idx", "agents_office_idx"]),
    ])
    func simpleSearchesUseTheirIndexes(function: String, types: [String], arguments: String,
                                       expected: [String]) throws {
        let connection = try Connection(Self.million.get())
        let text = try genericPlan(connection, function, types, arguments)
        #expect(!text.contains("Seq Scan"), "\(text)")
        for part in expected { #expect(text.contains(part), "no \(part):\n\(text)") }
    }

    @Test(arguments: [
        ("area", "price", "numeric", "Index Only Scan using listings_search_price_idx", ">"),
        ("area", "price_desc", "numeric", "Index Only Scan Backward using listings_search_price_idx", "<"),
        ("area", "newest", "date", "Index Only Scan Backward using listings_search_newest_idx", "<"),
        ("area", "beds", "integer", "Index Only Scan Backward using listings_search_beds_idx", "<"),
        ("status", "price", "numeric", "Index Only Scan using listings_search_status_price_idx", ">"),
        ("status", "price_desc", "numeric", "Index Only Scan Backward using listings_search_status_price_idx", "<"),
        ("status", "newest", "date", "Index Only Scan Backward using listings_search_status_newest_idx", "<"),
        ("status", "beds", "integer", "Index Only Scan Backward using listings_search_status_beds_idx", "<"),
    ])
    func detailedMergesTheGroupsScansOfItsCoveringIndexes(family: String, sort: String, keyType: String,
                                                           scan: String, after: String) throws {
        let connection = try Connection(Self.million.get())
        let area = family == "area"
        let groups = area ? ["text[]", "text[]", "text[]"] : ["text[]"]
        let types = groups + ["text", "text", "numeric", "numeric", "integer", "numeric", "numeric", "date", "boolean",
                              keyType, "text", "text", "integer"]
        let groupValues = area ? "'{Active,Active}', '{San Diego,San Diego}', '{92101,92103}'" : "'{Active,Pending}'"
        let start = ["numeric": "500000", "date": "'2026-11-01'", "integer": "4"][keyType]!
        for size in Migrations.detailedMergeSizes {
            let text = try genericPlan(connection, "search_internal.\(family)_merge\(size)_\(sort)", types,
                                       "\(groupValues), NULL, 'Residential', 500000, 900000, 3, NULL, NULL, NULL, "
                                           + "false, \(start), '', '', 20")
            #expect(!text.contains("Seq Scan"), "\(text)")
            // The groups' scans merged in order under the LIMIT: no sort, every scan in the sort's index.
            #expect(text.contains("Limit"), "\(text)")
            #expect(text.contains("Merge Append"), "\(text)")
            #expect(!text.contains("Sort  ("), "\(text)")
            let scans = text.components(separatedBy: scan + " on listings").count - 1
            #expect(scans == size, "\(text)")
            // Each scan starts at the start key: a row comparison the index applies, not a filter.
            let status = "Index Cond: (((COALESCE(standard_status, ''::text)) = ($1)[1]) AND"
            #expect(text.contains(status), "\(text)")
            #expect(text.contains(", source, listing_id) \(after) ROW("), "\(text)")
        }
    }

    @Test func nearReadsTheCoveringLocationIndexesOnly() throws {
        let connection = try Connection(Self.million.get())
        let text = try genericPlan(connection, "search_internal.near_rows", [
            "float8", "float8", "float8", "text", "text", "numeric", "numeric", "integer", "numeric", "numeric",
            "date", "integer", "boolean",
        ], "32.7157, -117.1611, 2, 'Residential', 'Active', NULL, NULL, 2, NULL, NULL, NULL, 20, false")
        #expect(!text.contains("Seq Scan"), "\(text)")
        // Two branches, one KNN scan and one box scan each; the arguments choose one when the plan starts.
        for index in ["listings_location_active_idx", "listings_location_idx"] {
            let scans = text.components(separatedBy: "Index Only Scan using \(index) on listings").count - 1
            #expect(scans == 2, "\(index):\n\(text)")
        }
        #expect(text.components(separatedBy: "Order By: ((point(longitude, latitude)) <-> point($2, $1))").count
                    - 1 == 2, "\(text)")
        #expect(text.components(separatedBy: "One-Time Filter: ($5 = 'Active'::text)").count - 1 == 2, "\(text)")
        #expect(text.components(separatedBy: "One-Time Filter: ($5 IS DISTINCT FROM 'Active'::text)").count - 1 == 2,
                "\(text)")
    }

    @Test(arguments: [
        ("status => 'Active'", "listings_location_active_idx"),
        ("status => 'Active', property_type => 'Land', include_withdrawn => true", "listings_location_active_idx"),
        ("", "listings_location_idx"),
        ("status => 'Pending'", "listings_location_idx"),
        ("status => 'Withdrawn'", "listings_location_idx"),
    ])
    func nearReadsTheActiveListingsIndexForActiveSearchesOnly(criteria: String, index: String) throws {
        // What the running function read (the table's counters), not only what its plan holds.
        let connection = try Connection(Self.million.get())
        let call = "SELECT count(*) FROM search.near(32.7157, -117.1611, 2"
            + (criteria.isEmpty ? ")" : ", \(criteria))")
        try connection.transaction {
            let found = try connection.execute(call).rows[0][0].flatMap { Int($0) }
            #expect(found == 20)
            let scans = try connection.execute("""
                SELECT indexrelid::regclass::text, pg_stat_get_xact_numscans(indexrelid) FROM pg_index
                WHERE indexrelid IN ('listings_location_active_idx'::regclass, 'listings_location_idx'::regclass)
                ORDER BY 1
                """).rows.map { ($0[0]!, Int($0[1]!)!) }
            #expect(scans.map { $0.0 == index ? $0.1 > 0 : $0.1 == 0 } == [true, true], "\(scans)")
        }
    }

    @Test(arguments: [
        ("SELECT count(*) FROM search.listing(NULL, '00500000')", "listings", 5),
        ("SELECT count(*) FROM search.quick('120', 'elm', 'san diego', 'Active')", "listings", 100),
        ("SELECT count(*) FROM search.quick('130', 'u')", "listings", 100),
        ("SELECT count(*) FROM search.agents('ab')", "agents", 1_000),
        ("SELECT count(*) FROM search.agents(NULL, 'OF3')", "agents", 10_000),
        ("SELECT count(*) FROM search.detailed(status => 'Active', city => 'San Diego', min_price => 500000, "
            + "max_price => 900000, min_beds => 3, sort => 'newest')", "listings", 200),
        ("SELECT count(*) FROM search.detailed(postal_code => '92103', sort => '-price')", "listings", 200),
        ("SELECT count(*) FROM search.near(32.7157, -117.1611, 2, status => 'Active')", "listings", 200),
    ])
    func everySearchFetchesFewRows(call: String, table: String, bound: Int) throws {
        // Rows fetched from the table (index-only scans fetch none from all-visible pages): the work a search does,
        // whatever its plan says, including the statements inside the PL/pgSQL functions.
        let connection = try Connection(Self.million.get())
        try connection.transaction {
            try connection.execute(call)
            let counters = try connection.execute(
                "SELECT seq_scan, idx_tup_fetch FROM pg_stat_xact_user_tables WHERE relname = $1", [table]).rows[0]
            #expect(counters[0] == "0")
            #expect((counters[1].flatMap { Int($0) } ?? .max) <= bound, "\(table) rows fetched: \(counters[1] ?? "?")")
        }
    }

    @Test func noFunctionScansListingsSequentially() throws {
        let connection = try Connection(Self.million.get())
        let calls = [
            "SELECT count(*) FROM search.listing(NULL, '00500000')",
            "SELECT count(*) FROM search.quick('120', 'elm')",
            "SELECT count(*) FROM search.agents('smi')",
            "SELECT count(*) FROM search.detailed()",
            "SELECT count(*) FROM search.detailed(status => 'Active', city => 'San Diego', min_price => 500000, "
                + "max_price => 900000, min_beds => 3, sort => 'newest')",
            "SELECT count(*) FROM search.detailed(postal_code => '92103', sort => '-price')",
            "SELECT count(*) FROM search.detailed(city => 'Julian', property_type => 'Land', sort => 'beds')",
            "SELECT count(*) FROM search.detailed(status => 'Withdrawn', lim => 100)",
            "SELECT count(*) FROM search.detailed(city => 'San Diego', include_withdrawn => true, sort => 'newest')",
            "SELECT count(*) FROM search.near(32.7157, -117.1611, 2)",
            "SELECT count(*) FROM search.near(33.0786, -116.6020, 2, property_type => 'Land', min_price => 200000)",
            "SELECT count(*) FROM search.near(40.0, -100.0, 25)",
        ]
        try connection.transaction {
            for call in calls { try connection.execute(call) }
            let counters = try connection.execute("""
                SELECT seq_scan, idx_scan FROM pg_stat_xact_user_tables WHERE relname = 'listings'
                """).rows[0]
            #expect(counters[0] == "0", "sequential scans of listings: \(counters[0] ?? "?")")
            #expect((counters[1].flatMap { Int($0) } ?? 0) > calls.count)
        }
    }

    @Test func everyIndexServesASearch() throws {
        // Every index of the tables the searches read is scanned by one of them (listings_pkey serves the loads'
        // merges, listings_on_market_idx their reads of the on-market listings: see MergePlanTests; the searches
        // look listings up by MLS number, listings_listing_id_idx).
        let connection = try Connection(Self.million.get())
        let calls = [
            "SELECT count(*) FROM search.listing('sdmls', '00500000')",
            "SELECT count(*) FROM search.quick('120', 'elm')",
            "SELECT count(*) FROM search.agents('smi')",
            "SELECT count(*) FROM search.agents(NULL, 'OF3')",
            "SELECT count(*) FROM search.detailed(city => 'Julian', sort => 'price')",
            "SELECT count(*) FROM search.detailed(postal_code => '92103', sort => 'newest')",
            "SELECT count(*) FROM search.detailed(city => 'Carlsbad', sort => 'beds')",
            "SELECT count(*) FROM search.detailed(status => 'Active', sort => '-price')",
            "SELECT count(*) FROM search.detailed(min_beds => 2, sort => 'newest')",
            "SELECT count(*) FROM search.detailed(status => 'Pending', sort => 'beds')",
            "SELECT count(*) FROM search.near(32.7157, -117.1611, 2)",
            "SELECT count(*) FROM search.near(32.7157, -117.1611, 2, status => 'Active')",
        ]
        try connection.transaction {
            for call in calls { try connection.execute(call) }
            let unused = try connection.execute("""
                SELECT indexrelid::regclass::text FROM pg_index
                WHERE indrelid IN ('listings'::regclass, 'agents'::regclass)
                  AND indexrelid NOT IN ('listings_pkey'::regclass, 'listings_on_market_idx'::regclass)
                  AND pg_stat_get_xact_numscans(indexrelid) = 0
                ORDER BY 1
                """).rows.map { $0[0]! }
            #expect(unused == [])
        }
    }
}
