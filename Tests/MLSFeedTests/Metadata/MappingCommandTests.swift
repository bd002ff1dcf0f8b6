import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// `mlsfeed mapping init` through the built binary: the mapping it writes validates and loads a matching feed.
@Suite(.ownThread) struct MappingCommandTests {
    /// The RETS COMPACT table and its lookups make a mapping; a feed with those SystemNames as columns loads
    /// into PostgreSQL with the expected listing columns, lookups decoded, and the listing agent as an agent row.
    @Test func retsCompactMetadataMakesAMappingThatLoadsAFeed() throws {
        let dir = try MetadataFixture.scratch("mapping-init")
        defer { try? FileManager.default.removeItem(at: dir) }
        let mappingPath = dir.appendingPathComponent("mappings/crmls.yaml").path
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("mappings"),
                                                withIntermediateDirectories: true)
        let made = try CLI.run(["mapping", "init",
                                "--from-metadata", MetadataFixture.url("rets-table-compact.xml").path,
                                "--lookups", MetadataFixture.url("rets-lookups-compact.xml").path,
                                "--output", mappingPath])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout == "wrote \(mappingPath): listing mapping with 28 fields placed, 4 going to extra\n")
        #expect(try String(contentsOfFile: mappingPath, encoding: .utf8)
            == (try MetadataFixture.text("rets-compact.golden.yaml")))

        try """
            source: { id: crmls, time_zone: America/Los_Angeles }
            format: { type: rets-compact, multi_value: [LIST_7] }
            mapping: mappings/crmls.yaml
            load: { max_reject_ratio: 0.5 }
            """.write(to: dir.appendingPathComponent("crmls.yaml"), atomically: true, encoding: .utf8)
        let feed = try MetadataFixture.url("rets-compact-feed.xml").path
        let validated = try CLI.run(["validate", "crmls.yaml"], in: dir)
        #expect(validated.status == 0, "\(validated.stderr)")
        #expect(validated.stdout == "crmls.yaml: ok (no input to check)\n")

        let database = try TestDatabase.migrated()
        let run = try CLI.run(["run", "crmls.yaml", "--input", feed, "--database", database, "--no-progress",
                               "--quiet"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let db = try Connection(database)
        let rows = try db.execute("""
            SELECT listing_id, standard_status, property_type, list_price::text, original_list_price::text,
                   listing_contract_date::text,
                   to_char(modification_timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                   bedrooms_total::text, bathrooms_full::text, living_area::text, year_built::text, city,
                   postal_code, latitude::text, list_agent_mls_id, extra->>'LIST_200', (extra->'LIST_7')::text
            FROM listings WHERE source = 'crmls' ORDER BY listing_id
            """).rows
        #expect(rows == [
            ["26001", "Active", "Residential", "549000.00", "575000.00", "2026-01-05", "2026-01-10T17:15:00Z",
             "3", "2", "1850", "1987", "San Diego", "92120", "32.785", "LA100", "R-1", #"["CL", "CS"]"#],
            ["26002", "ActiveUnderContract", "Condominium", "385000.00", nil, "2026-01-07", "2026-01-13T00:40:05Z",
             "2", "2", "1120", "2004", "La Mesa", "91942-1203", "32.7767", "LA101", nil, nil],
            ["26003", "Closed", "Land", "210000.00", "240000.00", "2025-11-20", "2026-01-14T19:05:30Z",
             nil, nil, nil, nil, "El Cajon", "92019", nil, "LA100", "A-70", #"["CS"]"#],
        ])
        let reject = try db.execute("SELECT reasons[1] FROM rejects").rows
        #expect(reject.count == 1)
        #expect(reject.first?.first??.hasPrefix("standard_status:") == true, "\(reject)")
        let agents = try db.execute("""
            SELECT agent_mls_id, first_name, last_name, office_mls_id, office_phone, email FROM agents ORDER BY 1
            """).rows
        #expect(agents == [["LA100", "Jane", "Doe", "OF10", "(619) 555-0134", "jdoe@example.com"],
                           ["LA101", "Ray", "Ortiz", "OF11", nil, "ray@example.com"]])
    }

    /// The EDMX Property mapping (with `ListAgent/...` paths) validates in a RESO Web API pipeline and loads a page.
    @Test func edmxMappingValidatesAndLoadsAResoJSONPage() throws {
        let dir = try MetadataFixture.scratch("mapping-edmx")
        defer { try? FileManager.default.removeItem(at: dir) }
        let made = try CLI.run(["mapping", "init", "--from-metadata",
                                MetadataFixture.url("reso-metadata.xml").path], in: dir)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout == (try MetadataFixture.text("reso-property.golden.yaml")))
        try made.stdout.write(to: dir.appendingPathComponent("reso-starter.yaml"), atomically: true, encoding: .utf8)
        try """
            source: { id: reso, time_zone: America/Chicago }
            format: { type: reso-json }
            mapping: reso-starter.yaml
            load: { max_reject_ratio: 0.5 }
            """.write(to: dir.appendingPathComponent("reso.yaml"), atomically: true, encoding: .utf8)
        let validated = try CLI.run(["validate", "reso.yaml"], in: dir)
        #expect(validated.status == 0, "\(validated.stderr)")
        let database = try TestDatabase.migrated()
        let page = CLI.packageRoot.appendingPathComponent("pipelines/data/reso-property.json").path
        let loaded = try CLI.run(["run", "reso.yaml", "--input", page, "--database", database, "--no-progress"],
                                 in: dir)
        #expect(loaded.status == 0, "\(loaded.stderr)")
        #expect(try Connection(database).execute("""
            SELECT listing_id, standard_status, list_price::text, list_agent_mls_id FROM listings ORDER BY 1
            """).rows == [["5512001", "ActiveUnderContract", "549000.00", "AG771"],
                          ["5512002", "ActiveUnderContract", "125000.00", nil]])
    }

    /// A starter from RESO Data Dictionary 2.0 style metadata loads RESO JSON payloads of every shape a server sends:
    /// the key alone (`ListingKey`), the MLS number beside it, the listing agent as flat fields and expanded, lists
    /// as arrays and as comma-joined text, enum members by name and by display name. Nothing is rejected; what the
    /// columns do not hold is in `extra` (an unchosen alternate under its key, a bad value's text under
    /// `_invalid.<column>`), and an unknown enum member is counted by value.
    @Test func edmxStarterLoadsEveryShapeOfRESOPayload() throws {
        let dir = try MetadataFixture.scratch("mapping-dd2")
        defer { try? FileManager.default.removeItem(at: dir) }
        let made = try CLI.run(["mapping", "init", "--from-metadata", MetadataFixture.url("reso-dd2.xml").path,
                                "--output", "starter.yaml"], in: dir)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stderr == "")
        try """
            source: { id: dd2, time_zone: America/Chicago, unit: all }
            format: { type: reso-json }
            mapping: starter.yaml
            """.write(to: dir.appendingPathComponent("dd2.yaml"), atomically: true, encoding: .utf8)
        let payloads = try MetadataFixture.url("reso-dd2").path
        let database = try TestDatabase.fresh()
        let loaded = try CLI.run(["run", "dd2.yaml", "--input", payloads + "/*.json", "--database", database,
                                  "--no-progress", "--summary-json", "summary.json", "--quiet"], in: dir)
        #expect(loaded.status == 0, "\(loaded.stderr)")
        let summary = try #require(JSONSerialization.jsonObject(
            with: Data(contentsOf: dir.appendingPathComponent("summary.json"))) as? [String: Any])
        #expect(summary["read"] as? Int == 11)
        #expect(summary["rejected"] as? Int == 0)
        #expect(summary["issues"] as? [String] == [#"listing_contract_date: 1 not a date ("TBD")"#,
                                                   #"property_type: 1 unknown value ("Cabin")"#])
        let db = try Connection(database)
        #expect(try db.execute("""
            SELECT listing_id, listing_key, standard_status, property_type, list_agent_mls_id, list_office_mls_id,
                   list_office_name, co_list_agent_mls_id, extra::text
            FROM listings ORDER BY listing_key
            """).rows == [
            ["KEY-1001", "KEY-1001", "Active", "Residential", nil, nil, nil, nil, "{}"],
            ["KEY-1002", "KEY-1002", "Pending", "Land", nil, nil, nil, nil, "{}"],
            ["MLS2001", "KEY-2001", "Closed", "Residential", nil, nil, nil, nil,
             #"{"_invalid.listing_contract_date": "TBD"}"#],
            ["MLS3001", "KEY-3001", "Active", "Residential", "AG77", "OF12", "Hill Country Realty", "AG78",
             #"{"ListAgentKey": "MK-77"}"#],
            ["MLS4001", "KEY-4001", "ComingSoon", "Residential", "AG90", "OF5", "Capitol Homes", nil,
             #"{"ListAgent": {"MemberKey": "MK-90"}, "ListAgentEmail": "old@example.com"}"#],
            ["MLS5001", "KEY-5001", "Active", "Residential", nil, nil, nil, nil,
             #"{"Appliances": ["Dishwasher", "Range"], "AccessibilityFeatures": ["Accessible Approach with Ramp"]}"#],
            ["MLS5002", "KEY-5002", "Active", "Residential", nil, nil, nil, nil,
             #"{"Appliances": ["Range"], "AccessibilityFeatures": ["AccessibleWithRamp"]}"#],
            ["MLS6001", "KEY-6001", "ActiveUnderContract", "ResidentialIncome", nil, nil, nil, nil, "{}"],
            ["MLS6002", "KEY-6002", "ComingSoon", nil, nil, nil, nil, nil, #"{"_invalid.property_type": "Cabin"}"#],
            ["MLS6003", "KEY-6003", "ActiveUnderContract", "ResidentialIncome", nil, nil, nil, nil, "{}"],
            ["MLS7001", "KEY-7001", "Active", "ResidentialIncome", nil, "OF7", "Eastside Realty", nil, "{}"],
        ])
        // The expanded media, open houses, offices, rooms and unit types the starter maps.
        #expect(try db.execute("""
            SELECT media_key, listing_id, media_order::text, media_url, media_category, short_description,
                   extra::text
            FROM media ORDER BY 1
            """).rows == [
            ["M1", "MLS4001", "1", "https://media.example.com/KEY-4001/1.jpg", nil, nil, "{}"],
            ["M70", "MLS7001", "1", "https://media.example.com/KEY-7001/1.jpg", "Photo", "Front",
             #"{"ImageWidth": 2048}"#],
            ["M71", "MLS7001", "2", "https://media.example.com/KEY-7001/2.jpg", "Photo", "Kitchen", "{}"],
        ])
        #expect(try db.execute("""
            SELECT open_house_key, listing_id, to_char(start_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI'),
                   to_char(end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI'), open_house_type
            FROM open_houses
            """).rows == [["OH-71", "MLS7001", "2026-03-08T19:00", "2026-03-08T22:00", "Public"]])
        #expect(try db.execute("SELECT office_mls_id, office_key, office_name, phone FROM offices ORDER BY 1").rows
            == [["OF12", nil, "Hill Country Realty", nil], ["OF5", "OK-5", "Capitol Homes", nil],
                ["OF7", "OK-7", "Eastside Realty", "(512) 555-0107"]])
        #expect(try db.execute("SELECT rooms::text, unit_types::text FROM listings WHERE listing_id = 'MLS7001'").rows
            == [[#"[{"RoomKey": "R1", "RoomType": "Kitchen", "RoomLevel": "Main", "RoomWidth": 12, "#
                    + #""RoomLength": 14.5}, {"RoomKey": "R2", "RoomType": "Primary Bedroom", "RoomLevel": "Upper"}]"#,
                 #"[{"UnitTypeKey": "U1", "UnitTypeType": "Apartment", "UnitTypeBedsTotal": 2, "#
                    + #""UnitTypeActualRent": 1850.00}]"#]])
        #expect(try db.execute("""
            SELECT agent_mls_id, first_name, last_name, office_mls_id, office_phone, mobile_phone, email, full_name
            FROM agents ORDER BY 1
            """).rows == [
            ["AG77", nil, nil, "OF12", "(512) 555-0142", nil, "rosa.delgado@example.com", "Rosa Delgado"],
            ["AG78", nil, nil, nil, nil, nil, nil, "Sam Ortiz"],
            ["AG90", "Lee", "Chan", nil, nil, "(512) 555-0190", "lee.chan@example.com", nil],
        ])
    }

    /// A RETS table without a key field: the starter is written with `from: TODO`, the command warns and exits 0,
    /// and `mlsfeed validate` refuses the pipeline naming the placeholder.
    @Test func aRETSTableWithoutAKeyWritesATodoThatValidateRefuses() throws {
        let dir = try MetadataFixture.scratch("mapping-legacy")
        defer { try? FileManager.default.removeItem(at: dir) }
        let made = try CLI.run(["mapping", "init", "--from-metadata",
                                MetadataFixture.url("rets-table-legacy.xml").path, "--output", "legacy.yaml"], in: dir)
        #expect(made.status == 0)
        #expect(made.stdout == "wrote legacy.yaml: listing mapping with 12 fields placed, 1 going to extra\n")
        #expect(made.stderr == "warning: rets-table-legacy.xml: Property:RE has no field mapping init takes for the "
                + "key listing_id (ListingId, MLSNumber, MLNumber, ... or a declared key): listing_id reads from TODO; "
                + "name the feed's key there before using the mapping\n")
        #expect(try String(contentsOf: dir.appendingPathComponent("legacy.yaml"), encoding: .utf8)
            == (try MetadataFixture.text("rets-legacy.golden.yaml")))
        try """
            source: { id: legacy, time_zone: America/Denver }
            format: { type: rets-compact }
            mapping: legacy.yaml
            """.write(to: dir.appendingPathComponent("legacy-pipeline.yaml"), atomically: true, encoding: .utf8)
        let validated = try CLI.run(["validate", "legacy-pipeline.yaml"], in: dir)
        #expect(validated.status == 2)
        #expect(validated.stderr == "legacy.yaml:10:35: error: fields.listing_id.from: \"TODO\" marks a source left "
                + "to fill in: name the feed's key (or path) for listing_id\n")
    }

    @Test func anExistingOutputIsKeptUnlessForced() throws {
        let dir = try MetadataFixture.scratch("mapping-out")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("member.yaml")
        try "mine\n".write(to: out, atomically: true, encoding: .utf8)
        let arguments = ["mapping", "init", "--from-metadata", try MetadataFixture.url("reso-metadata.xml").path,
                         "--resource", "Member", "--output", out.path]
        let refused = try CLI.run(arguments)
        #expect(refused.status == 2)
        #expect(refused.stderr.hasPrefix("error: \(out.path) exists; add --force to overwrite it\n"))
        #expect(try String(contentsOf: out, encoding: .utf8) == "mine\n")
        let forced = try CLI.run(arguments + ["--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try String(contentsOf: out, encoding: .utf8) == (try MetadataFixture.text("reso-member.golden.yaml")))
    }

    @Test(arguments: [
        (["mapping", "init"], 2, "error: missing --from-metadata FILE"),
        (["mapping", "start"], 2, "error: expected `mapping init`"),
        (["mapping", "init", "--from-metadata", "nosuch.xml"], 1, "error: nosuch.xml: no such file or directory"),
        (["mapping", "init", "--from-metadata", "FIXTURE:rets-standard-xml.xml"], 1,
         "error: FIXTURE:rets-standard-xml.xml: Property has several classes (RE_1, LD_2): choose one with --class"),
        (["mapping", "init", "--from-metadata", "FIXTURE:reso-metadata.xml", "--lookups",
          "FIXTURE:rets-lookups-compact.xml"], 1,
         "error: FIXTURE:rets-lookups-compact.xml: lookups come from a RETS METADATA-LOOKUP_TYPE reply, and only for "
            + "a RETS METADATA-TABLE"),
    ])
    func mistakesSayWhatIsWrong(arguments: [String], status: Int32, message: String) throws {
        let directory = try MetadataFixture.url("reso-metadata.xml").deletingLastPathComponent().path + "/"
        let resolved = arguments.map { $0.replacingOccurrences(of: "FIXTURE:", with: directory) }
        let result = try CLI.run(resolved)
        #expect(result.status == status)
        #expect(result.stderr.hasPrefix(message.replacingOccurrences(of: "FIXTURE:", with: directory) + "\n"),
                "\(result.stderr)")
    }
}
