import Foundation
import Postgres
import PostgresTestSupport
import Testing
import YAMLConfig
@testable import MLSFeed

/// RESO Web API replication never skips a record: runs that stop early (`max_pages`, a request budget) resume right
/// after the last record they loaded, ties of one timestamp larger than a run still advance, records the server
/// commits late (within `replication.overlap`) are read, and an order that would let the mark pass records never
/// fetched is refused when the pipeline is read. Against the loopback OData server (`ODataServer`).
@Suite(.ownThread) struct ReplicationTests {
    typealias Web = ResoWebAPITests

    /// The listing ids in the database, in order.
    static func loaded(_ database: String) throws -> [String] {
        try Web.listings(database).map { $0[0] ?? "" }
    }

    /// The replication state as the last committed run left it: mark, key at the mark, caught up.
    static func position(_ database: String) throws -> [[String?]] {
        try Connection(database).execute("""
            SELECT to_char(mark AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'), mark_key, caught_up::text
            FROM replication_state
            """).rows
    }

    /// The `$filter` of each data request that started a run (no `$skiptoken`).
    static func firstFilters(_ server: ODataServer) -> [String] {
        server.requests.filter { !$0.contains("$skiptoken") }.map { request in
            let query = request.split(separator: "?", maxSplits: 1).last.map(String.init) ?? ""
            return query.components(separatedBy: "&").first { $0.hasPrefix("$filter=") }
                .map { String($0.dropFirst("$filter=".count)) } ?? ""
        }
    }

    @Test func tiesLargerThanARunStillAdvance() throws {
        // 50 listings modified in the same instant; a run reads 2 pages of 10.
        let ties = (1...50).map { Web.record($0, modified: "2026-11-01T10:00:00Z") }
        let server = try ODataServer(records: ties)
        let database = try TestDatabase.migrated()
        let pipeline = try Web.pipeline(server, odata: "{ expand: [ListAgent], top: 10, max_pages: 2 }")
        var counts: [Int] = []
        for _ in 1...3 {
            let summary = try Web.run(pipeline, database)
            #expect(summary.status == .succeeded, "\(summary.error ?? "")")
            counts.append(try Self.loaded(database).count)
        }
        #expect(counts == [20, 40, 50])
        // Ordered by timestamp then key; each run after an early stop resumes after (mark, last key).
        let order = server.requests.map { $0.contains("$orderby=ModificationTimestamp,ListingId") }
        #expect(order.allSatisfy { $0 }, "\(server.requests)")
        #expect(Self.firstFilters(server) == [
            "ModificationTimestamp ge 2026-01-01T00:00:00Z",
            "(ModificationTimestamp gt 2026-11-01T10:00:00.000000Z) or (ModificationTimestamp eq "
                + "2026-11-01T10:00:00.000000Z and ListingId gt 'L27')",
            "(ModificationTimestamp gt 2026-11-01T10:00:00.000000Z) or (ModificationTimestamp eq "
                + "2026-11-01T10:00:00.000000Z and ListingId gt 'L45')",
        ])
        #expect(try Self.position(database) == [["2026-11-01T10:00:00.000000", "L9", "true"]])
    }

    @Test func tiedTimestampsAtAPageBoundaryWithAnEarlyStop() throws {
        // Three listings share 10:00 and the first run stops (max_pages: 1) between two of them.
        let records = [Web.record(1, modified: "2026-11-01T09:00:00Z"), Web.record(2, modified: "2026-11-01T10:00:00Z"),
                       Web.record(3, modified: "2026-11-01T10:00:00Z"), Web.record(4, modified: "2026-11-01T10:00:00Z"),
                       Web.record(5, modified: "2026-11-01T11:00:00Z")]
        let server = try ODataServer(records: records)
        let database = try TestDatabase.migrated()
        let pipeline = try Web.pipeline(server, odata: "{ expand: [ListAgent], top: 2, max_pages: 1 }")
        var seen: [[String]] = []
        for _ in 1...3 {
            let summary = try Web.run(pipeline, database)
            #expect(summary.status == .succeeded, "\(summary.error ?? "")")
            seen.append(try Self.loaded(database))
        }
        #expect(seen == [["L1", "L2"], ["L1", "L2", "L3", "L4"], ["L1", "L2", "L3", "L4", "L5"]])
        #expect(try Self.position(database) == [["2026-11-01T11:00:00.000000", "L5", "true"]])
    }

    @Test func recordsCommittedLateWithinTheOverlapAreRead() throws {
        let server = try ODataServer(records: Web.market)
        let database = try TestDatabase.migrated()
        let pipeline = try Web.pipeline(server)
        #expect(try Web.run(pipeline, database).status == .succeeded)
        // The server commits a listing modified two minutes before the mark after the run read past it.
        try server.setRecords(Web.market + [Web.record(9, modified: "2026-11-05T09:58:00Z")])
        let next = try Web.run(pipeline, database)
        #expect(next.status == .succeeded, "\(next.error ?? "")")
        #expect(next.load.inserted == 1)
        #expect(try Self.loaded(database) == ["L1", "L2", "L3", "L4", "L9"])
        #expect(Self.firstFilters(server).last == "ModificationTimestamp ge 2026-11-05T09:55:00.000000Z")
    }

    @Test func aBudgetPauseKeepsTheMarkAtTheLastLoadedPage() throws {
        let records = (1...6).map { Web.record($0, modified: "2026-11-0\($0)T10:00:00Z") }
        let server = try ODataServer(records: records)
        let database = try TestDatabase.migrated()
        let pipeline = try Web.pipeline(server, extra: "    rate_limit: { requests_per_hour: 2 }")
        let paused = try Web.run(pipeline, database)
        #expect(paused.status == .paused, "\(paused.error ?? "")")
        #expect(try Self.loaded(database) == ["L1", "L2", "L3", "L4"])
        #expect(try Self.position(database) == [["2026-11-04T10:00:00.000000", "L4", "false"]])
        try Connection(database).execute("UPDATE request_budgets SET window_start = window_start - interval '1 day'")
        #expect(try Web.run(pipeline, database).status == .succeeded)
        #expect(try Self.loaded(database) == ["L1", "L2", "L3", "L4", "L5", "L6"])
        #expect(Self.firstFilters(server).last == "(ModificationTimestamp gt 2026-11-04T10:00:00.000000Z) or "
            + "(ModificationTimestamp eq 2026-11-04T10:00:00.000000Z and ListingId gt 'L4')")
    }

    @Test func aFailedRunLeavesThePositionWhereItWas() throws {
        let server = try ODataServer(records: Web.market)
        let database = try TestDatabase.migrated()
        let pipeline = try Web.pipeline(server, odata: "{ expand: [ListAgent], top: 2, max_pages: 1 }")
        #expect(try Web.run(pipeline, database).status == .succeeded)
        let before = try Self.position(database)
        // Page 1 of the next run is not JSON: the run fails and rolls back.
        try server.setSettings(["broken_page": 1])
        let failed = try Web.run(pipeline, database)
        #expect(failed.status == .failed)
        #expect(try Self.position(database) == before)
        #expect(before == [["2026-11-02T10:00:00.000000", "L2", "false"]])
    }
}

/// The settings of a replicated Web API source that the pipeline file is checked for.
@Suite struct ReplicationConfigTests {
    /// The pipeline file `ResoWebAPITests.pipeline` writes with `odata` and `load.mode`, loaded; the error text if
    /// it is refused.
    static func load(odata: String = "{ top: 2 }", replication: String? = nil, mode: String = "incremental")
        throws -> String {
        let server = try ODataServer(records: [])
        var url: URL
        if let replication {
            url = try ResoWebAPITests.pipeline(server, odata: odata, replication: replication, mode: mode)
        } else {
            url = try ResoWebAPITests.pipeline(server, odata: odata, mode: mode)
        }
        do {
            let config = try PipelineConfig.load(path: url.path, project: ProjectConfig(),
                                                 environment: ResoWebAPITests.environment)
            return "orderby \(config.fetch.webAPI?.query.orderBy ?? "none")"
        } catch let error as ConfigError {
            return "\(error.line):\(error.column): \(error.path): \(error.message)"
        }
    }

    @Test(arguments: [
        ("{ top: 2, orderby: ListingKey }",
         "8:31: source.http.odata.orderby: with replication the records must be ordered by ModificationTimestamp "
            + "first (ModificationTimestamp, or ModificationTimestamp,ListingId), got \"ListingKey\": another order "
            + "lets the mark pass records never fetched"),
        ("{ top: 2, orderby: ModificationTimestamp desc }",
         "8:31: source.http.odata.orderby: with replication the records must be ordered by ModificationTimestamp "
            + "first (ModificationTimestamp, or ModificationTimestamp,ListingId), got \"ModificationTimestamp desc\": "
            + "another order lets the mark pass records never fetched"),
        ("{ top: 2, orderby: \"ModificationTimestamp,ListingId,City\" }",
         "8:31: source.http.odata.orderby: with replication the records must be ordered by ModificationTimestamp "
            + "first (ModificationTimestamp, or ModificationTimestamp,ListingId), got "
            + "\"ModificationTimestamp,ListingId,City\": another order lets the mark pass records never fetched"),
        ("{ top: 2, orderby: ModificationTimestamp }", "orderby ModificationTimestamp,ListingId"),
        ("{ top: 2, orderby: \"ModificationTimestamp asc, ListingKey\" }", "orderby ModificationTimestamp,ListingKey"),
        ("{ top: 2 }", "orderby ModificationTimestamp,ListingId"),
    ])
    func theOrderMustStartWithTheReplicationField(odata: String, outcome: String) throws {
        let loaded = try Self.load(odata: odata)
        #expect(loaded == outcome)
    }

    @Test func replicationWithAFullLoadIsRefusedNamingTheKeySweep() throws {
        #expect(try Self.load(mode: "full") == "16:15: load.mode: a replicated source (source.http.replication) "
            + "reads only what changed, never a complete dump, so a full run would withdraw every listing the delta "
            + "did not carry; keep load.mode: incremental and withdraw what the server no longer has with the key "
            + "sweep (source.http.replication.key_sweep, or mlsfeed sweep PIPELINE)")
    }

    @Test func anAgentPipelineIsOrderedByItsKeyAndHasNoKeySweep() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("member-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let mapping = CLI.packageRoot.appendingPathComponent("pipelines/mappings/reso-member.yaml").path
        func load(_ replication: String) throws -> String {
            let path = dir.appendingPathComponent("member.yaml").path
            try """
                source:
                  id: actris
                  input: https://api.example.com/odata/Member
                  time_zone: America/Chicago
                  http:
                    replication: \(replication)
                format: { type: reso-json }
                mapping: \(mapping)
                """.write(toFile: path, atomically: true, encoding: .utf8)
            do {
                let config = try PipelineConfig.load(path: path, project: ProjectConfig(), environment: [:])
                return "orderby \(config.fetch.webAPI?.query.orderBy ?? "none")"
            } catch let error as ConfigError {
                return "\(error.line):\(error.column): \(error.path): \(error.message)"
            }
        }
        #expect(try load("{ field: ModificationTimestamp }") == "orderby ModificationTimestamp,MemberMlsId")
        #expect(try load("{ field: ModificationTimestamp, key_sweep: { every: 7d } }") == "6:61: "
            + "source.http.replication.key_sweep: a key sweep withdraws listings the server no longer has; agents are "
            + "never withdrawn, so an agent pipeline has no key sweep")
    }

    @Test func aKeySweepAsksTheServerNotAFile() throws {
        let server = try ODataServer(records: [])
        let config = try PipelineConfig.load(path: try ResoWebAPITests.pipeline(server).path, project: ProjectConfig(),
                                             environment: ResoWebAPITests.environment)
        #expect(throws: ConfigError(file: config.file, line: 0, column: 0, message: "pipeline reso: a key sweep asks "
                                    + "the Web API server for its keys; --input page.json is no URL")) {
            _ = try config.keySweep(input: "page.json")
        }
        let sweep = try config.keySweep(input: server.url("odata/Property"))
        #expect(sweep.fetch.webAPI?.query.select == ["ListingId", "ModificationTimestamp", "MlgCanView"])
        #expect(sweep.mapping.fields.map(\.name) == ["listing_id", "modification_timestamp"])
        #expect(sweep.mapping.fields.map(\.sources) == [["ListingId"], ["ModificationTimestamp"]])
    }
}
