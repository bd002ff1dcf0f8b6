import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// The shipped nested-XML pipelines load their fixtures into PostgreSQL with every mapped column as written by
/// hand here from the fixture files.
@Suite(.ownThread) struct ShippedNestedPipelinesTests {
    static func load(_ pipeline: String) throws -> (summary: RunSummary, database: String) {
        let database = try TestDatabase.migrated()
        let config = try PipelineConfig.load(path: CLI.packageRoot.appendingPathComponent("pipelines/\(pipeline)").path,
                                             project: ProjectConfig(), environment: [:])
        var options = RunOptions()
        options.conninfo = database
        let summary = try PipelineRunner(config: config, options: options).run()
        return (summary, database)
    }

    /// Every listing column the shipped nested mappings can fill, as text, by MLS number.
    static func listings(_ database: String) throws -> [[String?]] {
        try Connection(database).execute("""
            SELECT listing_id, standard_status, property_type, list_price::text, close_price::text,
                   listing_contract_date::text,
                   to_char(modification_timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'),
                   bedrooms_total::text, bathrooms_full::text, bathrooms_half::text, living_area::text,
                   lot_size_square_feet::text, year_built::text, street_number, street_name, unit_number, city,
                   state_or_province, postal_code, county_or_parish, mls_area, latitude::text, longitude::text,
                   public_remarks, directions, list_agent_mls_id, co_list_agent_mls_id, list_office_mls_id,
                   list_office_name
            FROM listings ORDER BY listing_id
            """).rows
    }

    static func agents(_ database: String) throws -> [[String?]] {
        try Connection(database).execute("""
            SELECT agent_mls_id, first_name, last_name, full_name, office_mls_id, office_name, office_phone,
                   mobile_phone, email
            FROM agents ORDER BY agent_mls_id
            """).rows
    }

    /// Every column of `offices`, as text, by id.
    static func offices(_ database: String) throws -> [[String?]] {
        try Connection(database).execute("""
            SELECT office_mls_id, office_key, office_name, phone, email, street_address, city, state_or_province,
                   postal_code, to_char(modification_timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS'),
                   extra::text
            FROM offices ORDER BY office_mls_id
            """).rows
    }

    /// Every column of `media`, as text, by key.
    static func media(_ database: String) throws -> [[String?]] {
        try Connection(database).execute("""
            SELECT media_key, listing_id, media_order::text, media_url, media_category, short_description,
                   to_char(modification_timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'),
                   image_width::text, image_height::text, extra::text
            FROM media ORDER BY media_key
            """).rows
    }

    /// No `extra` holds text glued from a subtree: no newline followed by indentation.
    static func extrasAreStructured(_ database: String) throws -> Bool {
        try Connection(database).execute("""
            SELECT count(*) FROM (SELECT extra::text AS e FROM listings UNION ALL SELECT extra::text FROM agents) x
            WHERE e ~ '\\\\n +'
            """).rows.first?.first == "0"
    }

    @Test func syndication() throws {
        let (summary, database) = try Self.load("syndication.yaml")
        #expect(summary.status == .succeeded, "\(summary.error ?? "")")
        #expect(summary.warnings.isEmpty, "\(summary.warnings)")
        #expect(summary.load.inserted == 3)
        #expect(try Self.listings(database) == [
            ["260100001", "Active", "Residential", "849000.00", nil, "2026-10-01", "2026-11-28T01:46:37.263000",
             "4", "2", "1", "1850", "6250", "1926", nil, nil, nil, "San Diego", "CA", "92105-1342", "San Diego", nil,
             "32.748912", "-117.104553", "Craftsman bungalow & garden studio, walk to the park.",
             "I-805 to University Ave, east two blocks.", "SDA1001", "SDA2002", "SDO118", "Bayside Realty"],
            ["260100002", "Pending", "Residential", "463000.00", nil, "2026-09-15", "2026-11-26T08:00:00.000000",
             "2", "2", nil, "1104", nil, "1989", nil, nil, "22", "Poway", "CA", "92064", "San Diego", nil,
             "32.9571", "-117.0361", nil, nil, "SDA1001", nil, "SDO118", "Bayside Realty"],
            ["260100003", "Closed", "Land", "215000.00", nil, nil, "2026-11-25T20:00:00.000000",
             nil, nil, nil, nil, "217800", nil, nil, nil, nil, "Julian", "CA", "92036", nil, nil,
             nil, nil, nil, nil, "SDA4004", nil, nil, nil],
        ])
        // The buyer's agent (Role: Buyer) is no agent row; it stays in the listing's extra. The listing agent's
        // office is its listing's (`../../Offices/Office`).
        #expect(try Self.agents(database) == [
            ["SDA1001", "Maria", "Okafor", nil, "SDO118", "Bayside Realty", "(619) 555-7000", "(619) 555-0134",
             "maria.okafor@example.com"],
            ["SDA2002", "Tom", "Reyes", nil, nil, nil, nil, "(858) 555-0199", "tom.reyes@example.com"],
            ["SDA4004", "Ana", "Silva", nil, nil, nil, nil, nil, nil],
        ])
        let extra = try Connection(database).execute("""
            SELECT extra ? 'Photos', extra->'ListPrice'->>'@currencyCode', extra->'Address'->>'FullStreetAddress'
            FROM listings WHERE listing_id = '260100001'
            """).rows
        #expect(extra == [["f", "USD", "3891 University Ave"]])
        // The photos: no key of their own, so <MlsNumber>/<place>.
        #expect(try Self.media(database) == [
            ["260100001/1", "260100001", "1", "https://photos.example.com/sdmls/260100001/1.jpg", nil, nil,
             "2026-11-20T17:15:02.500000", nil, nil, "{}"],
            ["260100001/2", "260100001", "2", "https://photos.example.com/sdmls/260100001/2.jpg", nil, nil,
             "2026-11-20T17:15:02.500000", nil, nil, "{}"],
        ])
        // The office of both listings: each column the latest value any listing gave (the second names it only).
        #expect(try Self.offices(database) == [
            ["SDO118", "O-SDO118", "Bayside Realty", nil, nil, nil, nil, nil, nil, nil, #"{"Level": "Office"}"#],
        ])
        #expect(summary.load.rows[.media] == RowCounts(inserted: 2))
        #expect(summary.load.rows[.office] == RowCounts(inserted: 1))
        #expect(try Connection(database).execute("""
            SELECT extra->'ListingParticipants'->'Participant'->>'Role' FROM listings WHERE listing_id = '260100002'
            """).rows == [["Buyer"]])
        #expect(try Connection(database).execute("""
            SELECT listing_key, extra ? 'ListingKey', extra ? 'Offices' FROM listings ORDER BY listing_id
            """).rows == [["3yd-SDMLS-260100001", "f", "f"], ["3yd-SDMLS-260100002", "f", "f"], [nil, "f", "f"]])
        #expect(try Self.extrasAreStructured(database))
    }

    @Test func retsStandardXML() throws {
        let (summary, database) = try Self.load("rets-standard-xml.yaml")
        #expect(summary.status == .succeeded, "\(summary.error ?? "")")
        #expect(summary.completeness.isComplete)
        #expect(try Self.listings(database) == [
            ["SX-1001", "Active", "Residential", "649000.00", nil, "2026-10-02", "2026-11-27T18:15:00.500000",
             "3", "2", nil, "1650", nil, "1975", "1200", "Prospect St", nil, "La Jolla", "CA", "92037", "San Diego",
             "La Jolla", "32.8472", "-117.2742", "Ocean views, two blocks to the cove.", nil, "SDA7007", nil, "SDO5",
             "Coastal Homes"],
            ["SX-2002", "Closed", "CommercialSale", "1250000.00", "1195000.00", "2008-09-01",
             "2026-11-20T16:00:00.000000", nil, nil, nil, "5200", nil, nil, "410", "Market St", nil, "San Diego",
             "CA", "92101", nil, nil, nil, nil, nil, nil, "SDA7007", nil, "SDO5", "Coastal Homes"],
        ])
        #expect(try Self.agents(database) == [
            ["SDA7007", "Grace", "Kim", nil, "SDO5", "Coastal Homes", "(619) 555-0177", nil, "grace.kim@example.com"],
        ])
        #expect(try Self.offices(database) == [
            ["SDO5", nil, "Coastal Homes", nil, nil, nil, nil, nil, nil, nil, "{}"],
        ])
        #expect(try Connection(database).execute("SELECT extra::text FROM listings ORDER BY listing_id").rows
            == [[#"{"Structure": {"Pool": "TRUE", "View": "FALSE"}}"#], ["{}"]])
        // The property class, the name of the element around the listing, backs up a missing PropertyType.
        let sample = CLI.packageRoot.appendingPathComponent("pipelines/data/rets-standard-xml.xml")
        let classOnly = try String(contentsOf: sample, encoding: .utf8)
            .replacingOccurrences(of: "<PropertyType>CommercialSale</PropertyType>", with: "")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("class-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: file) }
        try classOnly.write(to: file, atomically: true, encoding: .utf8)
        var config = try PipelineConfig.load(
            path: CLI.packageRoot.appendingPathComponent("pipelines/rets-standard-xml.yaml").path,
            project: ProjectConfig(), environment: [:])
        config.mode = .incremental
        var options = RunOptions()
        options.conninfo = database
        options.input = file.path
        let rerun = try PipelineRunner(config: config, options: options).run()
        #expect(rerun.status == .succeeded, "\(rerun.error ?? "")")
        #expect(try Connection(database).execute("""
            SELECT listing_id, property_type, extra::text FROM listings ORDER BY listing_id
            """).rows == [["SX-1001", "Residential", #"{"Structure": {"Pool": "TRUE", "View": "FALSE"}}"#],
                          ["SX-2002", "CommercialSale", "{}"]])
        #expect(try Self.extrasAreStructured(database))
    }

    @Test func creaDDF() throws {
        let (summary, database) = try Self.load("crea-ddf.yaml")
        #expect(summary.status == .succeeded, "\(summary.error ?? "")")
        #expect(try Self.listings(database) == [
            ["S4419930", "Active", "Residential", "449000.00", nil, "2019-02-05", "2019-02-22T14:05:09.000000",
             "2", "1", nil, nil, nil, nil, "1", "Bayfield St", "1203", "Barrie", "Ontario", "L4M 3A6", nil, nil,
             nil, nil, nil, nil, "1510204", nil, "51240", "Lakeshore Realty Inc., Brokerage"],
            ["X4362018", "Active", "Residential", "799900.00", nil, "2019-01-22", "2019-02-21T23:40:21.000000",
             "3", "2", nil, nil, nil, "1987", "42", "Wallaby Way", nil, "Barrie", "Ontario", "L3C 5J1", nil, nil,
             nil, nil, "Bright family home steps from the lake. Updated kitchen & baths.", nil, "1427873", nil,
             "51240", "Lakeshore Realty Inc., Brokerage"],
        ])
        // The telephone, not the fax, by the attribute predicate; the office from the nested Office element.
        #expect(try Self.agents(database) == [
            ["1427873", nil, nil, "Jane Smith", "51240", "Lakeshore Realty Inc., Brokerage", "(905) 555-0101", nil,
             nil],
            ["1510204", nil, nil, "Marc Tremblay", "51240", "Lakeshore Realty Inc., Brokerage", "(705) 555-0177", nil,
             nil],
        ])
        #expect(try Connection(database).execute("""
            SELECT extra->'Phones'->'Phone'->0->>'#text', extra->'Phones'->'Phone'->0->>'@PhoneType'
            FROM agents WHERE agent_mls_id = '1427873'
            """).rows == [["(905) 555-0102", "Fax"]])
        #expect(try Connection(database).execute("""
            SELECT listing_id, listing_key, extra ? '@ID', extra ? 'Photo' FROM listings ORDER BY listing_id
            """).rows == [["S4419930", "20011877", "f", "f"], ["X4362018", "19839493", "f", "f"]])
        // The office with its address from the first agent that gives it; the second names it only.
        #expect(try Self.offices(database) == [
            ["51240", nil, "Lakeshore Realty Inc., Brokerage", "(705) 555-0100", nil, "123 Main St", "Barrie",
             "Ontario", "L4M 1A1", nil,
             #"{"Phones": {"Phone": {"@PhoneType": "Telephone", "@PhoneTypeId": "1"}}, "OrganizationType": "Firm"}"#],
        ])
        // Photo/PropertyPhoto: keyed <ListingID>/<SequenceId>; the large photo's URL, the other kept in extra.
        #expect(try Self.media(database) == [
            ["X4362018/1", "X4362018", "1", "https://photos.example.ca/X4362018/1-large.jpg", nil,
             "Front of the house", "2019-02-21T23:40:21.000000", nil, nil,
             #"{"PhotoURL": "https://photos.example.ca/X4362018/1.jpg", "LastUpdated": "21/02/2019 11:40:21 PM"}"#],
            // Its LastUpdated is day-first local time (America/Toronto).
            ["X4362018/2", "X4362018", "2", "https://photos.example.ca/X4362018/2-large.jpg", nil, nil,
             "2019-02-22T04:40:21.000000", nil, nil, #"{"PhotoURL": "https://photos.example.ca/X4362018/2.jpg"}"#],
        ])
        #expect(try Self.extrasAreStructured(database))
    }
}
