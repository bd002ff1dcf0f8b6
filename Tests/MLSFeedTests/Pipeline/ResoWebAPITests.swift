import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// RESO Web API replication against a loopback OData server (`ODataServer`): OAuth2, pages by `@odata.nextLink`,
/// retries, deletes, the replication position, request budgets, TLS, and a kill between pages.
@Suite(.ownThread) struct ResoWebAPITests {
    static func record(_ key: Int, price: Int = 500_000, modified: String, canView: Bool = true) -> [String: Any] {
        ["ListingKey": "K\(key)", "ListingId": "L\(key)", "StandardStatus": "Active", "ListPrice": price,
         "ModificationTimestamp": modified, "City": "Austin", "MlgCanView": canView,
         "ListAgent": ["MemberMlsId": "A\(key % 2)", "MemberFirstName": "Agent\(key % 2)"]]
    }

    /// Five listings, the fifth a deletion of a listing never seen.
    static var market: [[String: Any]] { [
        record(1, modified: "2026-11-01T10:00:00Z"), record(2, modified: "2026-11-02T10:00:00Z"),
        record(3, modified: "2026-11-03T10:00:00Z"), record(4, modified: "2026-11-04T10:00:00.25Z"),
        record(5, modified: "2026-11-05T10:00:00Z", canView: false),
    ] }

    /// The shipped RESO Web API pipeline shape, pointed at `server`.
    static func pipeline(_ server: ODataServer, extra: String = "", caFile: String? = nil,
                         auth: String? = nil,
                         odata: String = "{ expand: [ListAgent], top: 2, orderby: ModificationTimestamp }",
                         replication: String? = "{ field: ModificationTimestamp, start: \"2026-01-01T00:00:00Z\" }",
                         mode: String = "incremental") throws -> URL {
        let dir = server.state.appendingPathComponent("pipeline")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let mapping = CLI.packageRoot.appendingPathComponent("pipelines/mappings/reso.yaml").path
        try """
            name: reso
            source:
              id: actris
              input: \(server.url("odata/Property"))
              time_zone: America/Chicago
              http:
                auth: \(auth ?? Self.oauth2(server))
                odata: \(odata)
                retries: { attempts: 3, backoff: 0.1, max_backoff: 2 }
            \(replication.map { "    replication: \($0)" } ?? "")
                deleted_when: { field: MlgCanView, equals: false }
            \(caFile.map { "    ca_file: \($0)" } ?? "")
            \(extra)
            format: { type: reso-json }
            mapping: \(mapping)
            load: { mode: \(mode) }
            """.write(to: dir.appendingPathComponent("reso.yaml"), atomically: true, encoding: .utf8)
        return dir.appendingPathComponent("reso.yaml")
    }

    /// The OAuth2 client credentials of the server's token route, as `source.http.auth` (one line of YAML).
    static func oauth2(_ server: ODataServer) -> String {
        "{ oauth2: { token_url: \"\(server.url("token"))\", client_id: mls-client, "
            + "client_secret: \"${RESO_CLIENT_SECRET}\" } }"
    }

    static let environment = ["RESO_CLIENT_SECRET": "s3cret-client"]

    static func run(_ pipeline: URL, _ database: String) throws -> RunSummary {
        let config = try PipelineConfig.load(path: pipeline.path, project: ProjectConfig(), environment: environment)
        var options = RunOptions()
        options.conninfo = database
        return try PipelineRunner(config: config, options: options).run()
    }

    static func listings(_ database: String) throws -> [[String?]] {
        try Connection(database).execute("""
            SELECT listing_id, standard_status, list_price::text, off_market_at IS NOT NULL, list_agent_mls_id,
                   to_char(modification_timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')
            FROM listings ORDER BY listing_id
            """).rows
    }

    @Test func tokenPagesRetriesAndADeleteThenOnlyWhatChanged() throws {
        let server = try ODataServer(records: Self.market, faults: ["expire_token_after": 1, "busy_page": 2,
                                                                    "drop_page": 3])
        let database = try TestDatabase.migrated()
        let pipeline = try Self.pipeline(server)
        let first = try Self.run(pipeline, database)
        #expect(first.status == .succeeded, "\(first.error ?? "")")
        #expect(first.read == 5)
        #expect(first.load.inserted == 4)
        #expect(first.load.withdrawn == 0)
        // The mark is the last record read, the deletion of a listing never seen included.
        #expect(first.load.replicationMark == "2026-11-05T10:00:00.000000Z")
        #expect(try Self.listings(database).map { $0[0] } == ["L1", "L2", "L3", "L4"])
        #expect(try Connection(database).execute("SELECT agent_mls_id FROM agents ORDER BY 1").rows
            == [["A0"], ["A1"]])
        let log = server.log
        // The token was fetched twice (the first stopped working after one page); page 2 met a 429, page 3 a
        // connection dropped mid-body; both were retried.
        #expect(log.filter { $0.hasPrefix("POST /token") }.count == 2)
        #expect(log.first { $0.hasPrefix("GET") }?.contains("$filter=ModificationTimestamp ge 2026-01-01T00:00:00Z")
            == true)
        #expect(log.filter { $0.hasPrefix("GET") && $0.contains("$skiptoken=4") }.count == 2)
        // No secret in the summary or the ledger.
        let ledger = try Connection(database).execute("SELECT inputs::text || coalesce(error, '') FROM ingest_runs")
        #expect(!(first.text + first.json + "\(ledger.rows)").contains("s3cret-client"))
        #expect(!(first.text + first.json).contains("tok-"))

        // The next night: L2's price changed, L1 was deleted (MlgCanView false), L3 and L4 are as they were.
        var next = Self.market
        next[1] = Self.record(2, price: 525_000, modified: "2026-11-06T09:00:00Z")
        next[0] = Self.record(1, modified: "2026-11-06T10:00:00Z", canView: false)
        try server.setRecords(next)
        try server.setFaults([:])
        let second = try Self.run(pipeline, database)
        #expect(second.status == .succeeded, "\(second.error ?? "")")
        let secondQuery = server.log.filter { $0.hasPrefix("GET") }.dropFirst(log.filter { $0.hasPrefix("GET") }.count)
        // The run before read to the end: this one starts the overlap (5 minutes) before its last record.
        #expect(secondQuery.first?.contains("$filter=ModificationTimestamp ge 2026-11-05T09:55:00.000000Z") == true,
                "\(secondQuery)")
        // Only what changed since (L5 at the mark, L2, L1) was asked for.
        #expect(second.read == 3)
        #expect(second.load.updated == 1)
        #expect(second.load.withdrawn == 1)
        #expect(second.load.inserted == 0)
        #expect(try Self.listings(database) == [
            ["L1", "Withdrawn", "500001.00", "t", "A1", "2026-11-01T10:00:00.000000"],
            ["L2", "Active", "525000.00", "f", "A0", "2026-11-06T09:00:00.000000"],
            ["L3", "Active", "500000.00", "f", "A1", "2026-11-03T10:00:00.000000"],
            ["L4", "Active", "500000.00", "f", "A0", "2026-11-04T10:00:00.250000"],
        ].map { row in row.enumerated().map { $0.offset == 2 && row[0] == "L1" ? "500000.00" : $0.element } })
        #expect(try Connection(database).execute("""
            SELECT change FROM listing_history WHERE listing_id = 'L1'
            """).rows == [["withdrawn"]])
    }

    @Test func aBudgetPausesAtAPageBoundaryAndTheNextRunResumesFromTheMark() throws {
        let server = try ODataServer(records: Self.market)
        let database = try TestDatabase.migrated()
        let pipeline = try Self.pipeline(server,
                                         extra: "    rate_limit: { requests_per_second: 20, requests_per_hour: 2 }")
        let first = try Self.run(pipeline, database)
        #expect(first.status == .paused, "\(first.error ?? "")")
        #expect(first.load.inserted == 4)
        #expect(first.warnings.contains {
            $0.contains("the request budget of 2 requests per hour is used up; the run stopped at a page boundary")
        })
        let again = try Self.run(pipeline, database)
        #expect(again.status == .paused)
        #expect(again.read == 0)
        // An hour later (the window moved back): the run resumes right after the last record loaded and finishes.
        try Connection(database).execute("UPDATE request_budgets SET window_start = window_start - interval '1 day'")
        let resumed = try Self.run(pipeline, database)
        #expect(resumed.status == .succeeded, "\(resumed.error ?? "")")
        #expect(server.log.last { $0.hasPrefix("GET") }?.contains("$filter=(ModificationTimestamp gt "
            + "2026-11-04T10:00:00.250000Z) or (ModificationTimestamp eq 2026-11-04T10:00:00.250000Z and ListingId gt "
            + "'L4')") == true, "\(server.log)")
        #expect(try Self.listings(database).count == 4)
        #expect(try Connection(database).execute("SELECT string_agg(status, ',' ORDER BY id) FROM ingest_runs").rows
            == [["paused,paused,succeeded"]])
    }

    @Test func overTLSWithTheCAFileAndRefusedWithoutIt() throws {
        let tls = try TLSFetchServer.shared.get()
        let server = try ODataServer(records: Self.market, tls: tls)
        let database = try TestDatabase.migrated()
        let trusted = try Self.run(try Self.pipeline(server, caFile: tls.caFile), database)
        #expect(trusted.status == .succeeded, "\(trusted.error ?? "")")
        #expect(trusted.load.inserted == 4)
        let refused = try Self.run(try Self.pipeline(server), TestDatabase.migrated())
        #expect(refused.status == .failed)
        #expect(refused.error?.contains("TLS: the server certificate is not trusted") == true, "\(refused.error ?? "")")
    }

    @Test func killedBetweenPagesThenRerunEqualsOneCleanRun() throws {
        let clean = try TestDatabase.migrated()
        let cleanServer = try ODataServer(records: Self.market)
        #expect(try Self.run(try Self.pipeline(cleanServer), clean).status == .succeeded)

        let server = try ODataServer(records: Self.market, faults: ["hold_page": 2])
        let database = try TestDatabase.migrated()
        let pipeline = try Self.pipeline(server)
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["run", pipeline.path, "--database", database, "--quiet", "--no-progress"]
        process.environment = ProcessInfo.processInfo.environment.merging(Self.environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while !server.log.contains(where: { $0.contains("$skiptoken=2") }) && Date() < deadline { usleep(20_000) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try server.release()
        #expect(try Self.listings(database).isEmpty)
        let rerun = try Self.run(pipeline, database)
        #expect(rerun.status == .succeeded, "\(rerun.error ?? "")")
        #expect(try Self.listings(database) == Self.listings(clean))
        #expect(try Connection(database).execute("SELECT to_char(mark AT TIME ZONE 'UTC', 'HH24:MI:SS.US') "
                                                 + "FROM replication_state").rows == [["10:00:00.000000"]])
    }
}

/// The shipped RESO Web API pipelines on their fixture pages (`--input` a file: no HTTP, no replication state).
@Suite(.ownThread) struct ShippedResoPipelinesTests {
    static func run(_ pipeline: String, input: String, database: String) throws -> RunSummary {
        var project = ProjectConfig()
        project.maxRejectRatio = 0.5
        let config = try PipelineConfig.load(
            path: CLI.packageRoot.appendingPathComponent("pipelines/\(pipeline)").path, project: project,
            environment: ["RESO_CLIENT_ID": "mls-client", "RESO_CLIENT_SECRET": "s3cret-client"])
        var options = RunOptions()
        options.conninfo = database
        options.input = CLI.packageRoot.appendingPathComponent("pipelines/data/\(input)").path
        return try PipelineRunner(config: config, options: options).run()
    }

    @Test func propertyPageLoadsTypedValuesTheExpandedAgentAndRejectsAnUnknownStatus() throws {
        let database = try TestDatabase.migrated()
        let summary = try Self.run("reso-web-api.yaml", input: "reso-property.json", database: database)
        #expect(summary.status == .succeeded, "\(summary.error ?? "")")
        #expect(summary.rejectReasons == [#"standard_status: 1 unknown value ("Teleported")"#])
        let db = try Connection(database)
        #expect(try db.execute("""
            SELECT listing_id, standard_status, property_type, list_price::text, original_list_price::text,
                   to_char(modification_timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'),
                   bedrooms_total::text, bathrooms_full::text, living_area::text, city, postal_code,
                   list_agent_mls_id
            FROM listings ORDER BY listing_id
            """).rows == [
                ["5512001", "ActiveUnderContract", "Residential", "549000.00", "565000.00",
                 "2026-11-27T15:04:05.123457", "3", "2", "1850.5", "Austin", "78704", "AG771"],
                ["5512002", "ActiveUnderContract", "Land", "125000.00", nil, "2026-11-27T15:30:00.000000", nil, nil,
                 nil, "Dripping Springs", "78620", nil],
            ])
        #expect(try db.execute("""
            SELECT extra->'Appliances'::text, extra ? 'Media', extra ? 'OpenHouse', extra ? 'ListOffice',
                   extra->'PoolPrivateYN'::text, extra->'ListAgent'->>'MemberStateLicense', rooms::text
            FROM listings WHERE listing_id = '5512001'
            """).rows == [[#"["Dishwasher", "Range", "Refrigerator"]"#, "f", "f", "f", "true", "TX-0654321",
                           #"[{"RoomType": "Kitchen", "RoomLevel": "Main", "RoomDimensions": "14x12"}, "#
                            + #"{"RoomType": "Primary Bedroom", "RoomLevel": "Main", "RoomWidth": 13.5, "#
                            + #""RoomLength": 16}]"#]])
        // The expanded Media, OpenHouse and ListOffice of the listing, every value.
        #expect(try db.execute("""
            SELECT media_key, listing_id, media_order::text, media_url, media_category, short_description,
                   to_char(modification_timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS'), image_width::text,
                   image_height::text
            FROM media ORDER BY 1
            """).rows == [
                ["M1", "5512001", "1", "https://media.example.com/ACT1001/1.jpg", "Photo", "Front", nil, "2048",
                 "1536"],
                ["M2", "5512001", "2", "https://media.example.com/ACT1001/2.jpg", "Photo", nil, "2026-11-20T10:00:00",
                 nil, nil],
            ])
        #expect(try db.execute("""
            SELECT open_house_key, listing_id, to_char(start_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS'),
                   to_char(end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS'), open_house_type, status, remarks
            FROM open_houses
            """).rows == [["OH1001", "5512001", "2026-12-06T19:00:00", "2026-12-06T21:00:00", "Public", "Active",
                           "Refreshments."]])
        #expect(try db.execute("SELECT office_mls_id, office_key, office_name, phone FROM offices").rows
            == [["OF12", "OK12", "Hill Country Realty", "(512) 555-0100"]])
        #expect(try db.execute("SELECT extra->>'Appliances' FROM listings WHERE listing_id = '5512002'").rows
            == [["[]"]])
        #expect(try db.execute("""
            SELECT agent_mls_id, first_name, last_name, mobile_phone, email FROM agents
            """).rows == [["AG771", "Rosa", "Delgado", "(512) 555-0142", "rosa.delgado@example.com"]])
        #expect(try db.execute("SELECT raw->>'StandardStatus' FROM rejects").rows == [["Teleported"]])
    }

    @Test func memberPageLoadsAgents() throws {
        let database = try TestDatabase.migrated()
        let summary = try Self.run("reso-member.yaml", input: "reso-member.json", database: database)
        #expect(summary.status == .succeeded, "\(summary.error ?? "")")
        #expect(try Connection(database).execute("""
            SELECT agent_mls_id, first_name, last_name, full_name, office_mls_id, office_phone, mobile_phone, email
            FROM agents ORDER BY 1
            """).rows == [
                ["AG771", "Rosa", "Delgado", "Rosa Delgado", "OF12", "(512) 555-0100", "(512) 555-0142",
                 "rosa.delgado@example.com"],
                ["AG772", nil, nil, "Sam Okoro", "OF12", "(512) 555-0100", nil, nil],
            ])
    }
}
