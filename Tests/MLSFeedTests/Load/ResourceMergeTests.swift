import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// Office, OpenHouse and Media resources (`entity: office`, `open_house`, `media`) load as rows of their tables,
/// keyed and merged as listings are: the shipped pipelines on their samples, then full dumps that delete what they
/// no longer carry, under the completeness rule and the withdraw guard.
@Suite(.ownThread) struct ResourceMergeTests {
    /// Runs the shipped `pipeline` on its sample `input` (under `pipelines/data/`) into `database`.
    static func shipped(_ pipeline: String, input: String, database: String) throws -> RunSummary {
        let config = try PipelineConfig.load(
            path: CLI.packageRoot.appendingPathComponent("pipelines/\(pipeline)").path, project: ProjectConfig(),
            environment: ["RESO_CLIENT_ID": "mls-client", "RESO_CLIENT_SECRET": "s3cret-client"])
        var options = RunOptions()
        options.conninfo = database
        options.input = CLI.packageRoot.appendingPathComponent("pipelines/data/\(input)").path
        return try PipelineRunner(config: config, options: options).run()
    }

    @Test func theShippedOfficePipelineLoadsEveryValue() throws {
        let database = try TestDatabase.migrated()
        let summary = try Self.shipped("reso-office.yaml", input: "reso-office.json", database: database)
        #expect(summary.status == .succeeded, "\(summary.error ?? "")")
        #expect(summary.load.rows[.office] == RowCounts(inserted: 2))
        #expect(summary.load.inserted == 0)
        #expect(try Connection(database).execute("""
            SELECT office_mls_id, office_key, office_name, phone, email, street_address, city, state_or_province,
                   postal_code, to_char(modification_timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS'),
                   extra::text
            FROM offices ORDER BY 1
            """).rows == [
                ["OF12", "OK12", "Hill Country Realty", "(512) 555-0100", "front.desk@hillcountry.example.com",
                 "400 S Lamar Blvd", "Austin", "TX", "78704", "2026-11-18T09:00:00", #"{"OfficeStatus": "Active"}"#],
                ["OF31", "OK31", "Capitol Homes", "(512) 555-0131", nil, nil, nil, nil, nil, "2026-11-19T10:30:00",
                 "{}"],
            ])
    }

    @Test func theShippedOpenHousePipelineLoadsEveryValue() throws {
        let database = try TestDatabase.migrated()
        let summary = try Self.shipped("reso-open-house.yaml", input: "reso-open-house.json", database: database)
        #expect(summary.status == .succeeded, "\(summary.error ?? "")")
        #expect(summary.load.rows[.openHouse] == RowCounts(inserted: 2))
        // The listing's MLS number where the record names it, else its key; naive times in the source's zone.
        #expect(try Connection(database).execute("""
            SELECT open_house_key, listing_id, to_char(start_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS'),
                   to_char(end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS'), open_house_type, status, remarks,
                   to_char(modification_timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS'), extra::text
            FROM open_houses ORDER BY 1
            """).rows == [
                ["OH1001", "5512001", "2026-12-06T19:00:00", "2026-12-06T21:00:00", "Public", "Active",
                 "Refreshments.", "2026-11-27T15:04:05", #"{"ListingKey": "ACT1001"}"#],
                ["OH1002", "ACT1002", "2026-12-07T16:00:00", "2026-12-07T18:00:00", "Broker", "Active", nil,
                 "2026-11-27T16:00:00", "{}"],
            ])
    }

    @Test func theShippedMediaPipelineLoadsEveryValue() throws {
        let database = try TestDatabase.migrated()
        let summary = try Self.shipped("reso-media.yaml", input: "reso-media.json", database: database)
        #expect(summary.status == .succeeded, "\(summary.error ?? "")")
        #expect(summary.load.rows[.media] == RowCounts(inserted: 3))
        #expect(try Connection(database).execute("""
            SELECT media_key, listing_id, media_order::text, media_url, media_category, short_description,
                   to_char(modification_timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS'), image_width::text,
                   image_height::text, extra::text
            FROM media ORDER BY 1
            """).rows == [
                ["M1", "5512001", "1", "https://media.example.com/ACT1001/1.jpg", "Photo", "Front",
                 "2026-11-20T10:00:00", "2048", "1536",
                 #"{"ResourceName": "Property", "ResourceRecordKey": "ACT1001"}"#],
                ["M2", "5512001", "2", "https://media.example.com/ACT1001/2.jpg", "Photo", nil, "2026-11-20T10:00:00",
                 nil, nil, #"{"ResourceName": "Property", "ResourceRecordKey": "ACT1001"}"#],
                ["M9", "ACT1002", "1", "https://media.example.com/ACT1002/1.jpg", "Floor Plan", nil,
                 "2026-11-21T08:00:00", nil, nil, #"{"ResourceName": "Property"}"#],
            ])
    }

    /// The shipped Media resource mapping in a full-mode pipeline.
    static func scratch(onIncomplete: String = "fail") throws -> RESOScratch {
        try RESOScratch(mapping: "reso-media.yaml", load: "{ mode: full, on_incomplete: \(onIncomplete) }")
    }

    /// Media records: (key, listing, URL, modified).
    static func photos(_ photos: [(String, String, String, String)]) -> [String] {
        photos.map { key, listing, url, modified in
            "{\"MediaKey\": \"\(key)\", \"ResourceRecordID\": \"\(listing)\", \"MediaURL\": \"\(url)\", "
                + "\"MediaModificationTimestamp\": \"\(modified)\"}"
        }
    }

    static func media(_ scratch: RESOScratch) throws -> [[String?]] {
        try scratch.query("SELECT media_key, listing_id, media_url FROM media ORDER BY 1")
    }

    static let day1 = "2026-11-01T10:00:00Z"
    static let day2 = "2026-11-02T10:00:00Z"

    @Test func aFullDumpDeletesThePhotosItNoLongerCarriesAndAnOlderCopyIsStale() throws {
        let scratch = try Self.scratch()
        let first = try scratch.run(Self.photos([("M1", "L1", "u/1", Self.day1), ("M2", "L1", "u/2", Self.day1),
                                                 ("M3", "L2", "u/3", Self.day1), ("M4", "L2", "u/4", Self.day1)]))
        #expect(first.status == .succeeded, "\(first.error ?? "")")
        #expect(first.load.rows[.media] == RowCounts(inserted: 4))
        // M4 is gone, M1 changed, M2 comes in an older copy (stale), M1 twice (the newer wins).
        let second = try scratch.run(Self.photos([
            ("M1", "L1", "u/1-old", Self.day1), ("M1", "L1", "u/1-new", Self.day2),
            ("M2", "L1", "u/2-old", "2026-10-01T10:00:00Z"), ("M3", "L2", "u/3", Self.day1),
            ("M5", "L2", "u/5", Self.day2),
        ]), count: 5)
        #expect(second.status == .succeeded, "\(second.error ?? "")")
        #expect(second.load.rows[.media] == RowCounts(inserted: 1, updated: 1, unchanged: 1, stale: 1, deleted: 1))
        #expect(second.load.reconciled)
        #expect(try Self.media(scratch) == [["M1", "L1", "u/1-new"], ["M2", "L1", "u/2"], ["M3", "L2", "u/3"],
                                        ["M5", "L2", "u/5"]])
        #expect(second.text.contains("\n  media: inserted 1, updated 1, unchanged 1, stale 1, deleted 1\n"))
    }

    @Test func anIncompleteDumpDeletesNothing() throws {
        let scratch = try Self.scratch()
        _ = try scratch.run(Self.photos([("M1", "L1", "u/1", Self.day1), ("M2", "L1", "u/2", Self.day1)]))
        // The server says three records, one came: refused, nothing changed.
        let refused = try scratch.run(Self.photos([("M1", "L1", "u/1-new", Self.day2)]), count: 3)
        #expect(refused.status == .failed)
        #expect(refused.error == "error: dump is incomplete (COUNT 3 > 1 rows read); a full run withdraws "
            + "only from a complete dump; set load.on_incomplete: incremental to upsert it anyway")
        #expect(try Self.media(scratch) == [["M1", "L1", "u/1"], ["M2", "L1", "u/2"]])

        let lenient = try Self.scratch(onIncomplete: "incremental")
        _ = try lenient.run(Self.photos([("M1", "L1", "u/1", Self.day1), ("M2", "L1", "u/2", Self.day1)]))
        let upserted = try lenient.run(Self.photos([("M1", "L1", "u/1-new", Self.day2)]), count: 3)
        #expect(upserted.status == .succeeded, "\(upserted.error ?? "")")
        #expect(upserted.load.rows[.media] == RowCounts(updated: 1))
        #expect(try Self.media(lenient) == [["M1", "L1", "u/1-new"], ["M2", "L1", "u/2"]])
    }

    @Test func theWithdrawGuardRefusesADumpWithFewRows() throws {
        let scratch = try Self.scratch()
        _ = try scratch.run(Self.photos([("M1", "L1", "u/1", Self.day1), ("M2", "L1", "u/2", Self.day1),
                                         ("M3", "L2", "u/3", Self.day1), ("M4", "L2", "u/4", Self.day1)]))
        let refused = try scratch.run(Self.photos([("M1", "L1", "u/1", Self.day1)]))
        #expect(refused.status == .failed)
        #expect(refused.failure == .refused)
        #expect(refused.error == "error: full dump holds 1 media rows, fewer than 50% of the 4 stored for source "
            + "actris: refusing to delete the rest (a truncated download?); rerun with --force to load it anyway")
        #expect(try Self.media(scratch).count == 4)
        let forced = try scratch.run(Self.photos([("M1", "L1", "u/1", Self.day1)]), force: true)
        #expect(forced.status == .succeeded, "\(forced.error ?? "")")
        #expect(forced.load.rows[.media] == RowCounts(unchanged: 1, deleted: 3))
        #expect(try Self.media(scratch) == [["M1", "L1", "u/1"]])
    }

    @Test func aPhotoWithoutItsListingIsRejected() throws {
        let scratch = try Self.scratch()
        let summary = try scratch.run(Self.photos([("M1", "", "u/1", Self.day1), ("M2", "L1", "u/2", Self.day1)]))
        #expect(summary.status == .succeeded, "\(summary.error ?? "")")
        #expect(summary.rejectReasons == ["listing_id: 1 required field is missing"])
        // The reject keeps the record whole, as the feed sent it.
        #expect(try scratch.query("SELECT entity, key, reasons::text, raw::text FROM rejects")
            == [["media", "M1", "{\"listing_id: required field is missing\"}",
                 #"{"MediaKey": "M1", "MediaURL": "u/1", "ResourceRecordID": "", "#
                    + #""MediaModificationTimestamp": "2026-11-01T10:00:00Z"}"#]])
        #expect(try Self.media(scratch) == [["M2", "L1", "u/2"]])
    }

    /// `mlsfeed rejects replay` of a Media run: after the mapping learns the listing's other name, the rejected
    /// photo loads from its stored raw fields as a media row, and the replay says so.
    @Test func aReplayedPhotoLoadsAfterAMappingFix() throws {
        let narrow = """
            entity: media
            fields:
              media_key:  { from: MediaKey, type: text, required: true }
              listing_id: { from: ResourceRecordID, type: text, required: true }
              media_url:  { from: MediaURL, type: text }
            """
        let scratch = try RESOScratch(mappingText: narrow, load: "{ mode: incremental }")
        let first = try scratch.run([
            #"{"MediaKey": "M1", "ResourceRecordKey": "K1", "MediaURL": "u/1"}"#,
            #"{"MediaKey": "M2", "ResourceRecordID": "L2", "MediaURL": "u/2"}"#,
        ])
        #expect(first.status == .succeeded, "\(first.error ?? "")")
        #expect(first.rejectReasons == ["listing_id: 1 required field is not in the feed"])
        try narrow.replacingOccurrences(of: "from: ResourceRecordID,",
                                        with: "from: [ResourceRecordID, ResourceRecordKey],")
            .write(to: scratch.dir.appendingPathComponent("mapping.yaml"), atomically: true, encoding: .utf8)
        let replay = try CLI.run(["rejects", "replay", "--run", String(try #require(first.runID)), "--pipeline",
                                  scratch.pipeline.path, "--database", scratch.database])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("\n  media: inserted 1, updated 0, unchanged 0\n"), "\(replay.stdout)")
        #expect(try Self.media(scratch) == [["M1", "K1", "u/1"], ["M2", "L2", "u/2"]])
    }
}
