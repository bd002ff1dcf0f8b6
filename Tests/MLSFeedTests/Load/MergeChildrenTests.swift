import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// A listing's media and open houses go with the copy of the listing that won: RESO JSON pages with `$expand` loaded
/// by the shipped `reso.yaml` into the real database, run after run, every value checked.
@Suite(.ownThread) struct MergeChildrenTests {
    /// The shipped RESO mapping in an incremental pipeline that merges at the end only; `stages` as given.
    static func scratch(stages: String = "{}") throws -> RESOScratch {
        try RESOScratch(mapping: "reso.yaml", load: "{ mode: incremental, merge_while_parsing: 0 }", stages: stages)
    }
    /// A listing record: `extra` is JSON members after its own (`"Media": [...]`).
    static func listing(_ id: String, modified: String = "2026-11-01T10:00:00Z", price: Int = 500_000,
                        _ extra: String = "") -> String {
        "{\"ListingId\": \"\(id)\", \"StandardStatus\": \"Active\", \"ListPrice\": \(price), "
            + "\"ModificationTimestamp\": \"\(modified)\"\(extra.isEmpty ? "" : ", " + extra)}"
    }

    /// `"Media": [...]` of photos `(key, order, url)`.
    static func photos(_ photos: [(String, Int, String)]) -> String {
        "\"Media\": [" + photos.map { key, order, url in
            "{\"MediaKey\": \"\(key)\", \"Order\": \(order), \"MediaURL\": \"\(url)\", \"MediaCategory\": \"Photo\"}"
        }.joined(separator: ", ") + "]"
    }

    @Test func everyValueOfAnExpandedListingIsLoaded() throws {
        let scratch = try Self.scratch()
        let summary = try scratch.run([Self.listing("L1", """
            "ListOfficeMlsId": "OF1", "ListOffice": {"OfficeKey": "OK1", "OfficeMlsId": "OF1", "OfficeName": "North \
            Realty", "OfficePhone": "512.555.0101", "OfficeEmail": "Desk@North.example.com", "OfficeAddress1": "1 Main \
            St", "OfficeCity": "Austin", "OfficeStateOrProvince": "TX", "OfficePostalCode": "78701", \
            "ModificationTimestamp": "2026-10-01T08:00:00Z", "OfficeStatus": "Active"},
            "Media": [{"MediaKey": "M2", "Order": 2, "MediaURL": "https://m.example.com/L1/2.jpg",
                       "MediaCategory": "Photo", "ShortDescription": "Kitchen",
                       "MediaModificationTimestamp": "2026-10-02T09:00:00Z", "ImageWidth": 1024, "ImageHeight": 768,
                       "MediaObjectID": "obj-2"},
                      {"MediaKey": "M1", "Order": 1, "MediaURL": "https://m.example.com/L1/1.jpg",
                       "MediaCategory": "Photo", "ImageWidth": "wide"}],
            "OpenHouse": [{"OpenHouseKey": "OH1", "OpenHouseStartTime": "2026-11-08T13:00:00-06:00",
                           "OpenHouseEndTime": "2026-11-08T15:00:00-06:00", "OpenHouseType": "Public",
                           "OpenHouseStatus": "Active", "OpenHouseRemarks": "Cookies.",
                           "ModificationTimestamp": "2026-11-01T09:00:00Z"},
                          {"OpenHouseStartTime": "2026-11-09T10:00:00", "OpenHouseType": "Broker"}],
            "OpenHouses": [{"OpenHouseType": "Public"}],
            "Rooms": [{"RoomType": "Kitchen", "RoomLength": 14.5, "RoomLevel": "Main"}, {"RoomType": "Den"}],
            "UnitTypes": [{"UnitTypeType": "Apartment", "UnitTypeBedsTotal": 2, "UnitTypeActualRent": 1850.00}]
            """)])
        #expect(summary.status == .succeeded, "\(summary.error ?? "")")
        #expect(summary.rejected == 0)
        #expect(summary.issues == [#"media.image_width: 1 not an integer ("wide")"#,
                                   "open_house.open_house_key: 1 no key and no start time, dropped"])
        #expect(try scratch.media() == [
            ["M1", "L1", "1", "https://m.example.com/L1/1.jpg", "Photo", nil, nil, nil, nil, "1"],
            ["M2", "L1", "2", "https://m.example.com/L1/2.jpg", "Photo", "Kitchen", "2026-10-02T09:00:00", "1024",
             "768", "1"],
        ])
        // What a row's fields do not read, and a bad value's text, stay in the row's extra.
        #expect(try scratch.query("SELECT media_key, extra::text FROM media ORDER BY 1") == [
            ["M1", #"{"_invalid.image_width": "wide"}"#], ["M2", #"{"MediaObjectID": "obj-2"}"#],
        ])
        // An open house without its key is keyed <listing>/<start in UTC>; one without a start is dropped.
        #expect(try scratch.openHouses() == [
            ["OH1", "L1", "2026-11-08T19:00:00", "2026-11-08T21:00:00", "Public", "Active", "Cookies.", "1"],
            ["L1/2026-11-09T16:00:00Z", "L1", "2026-11-09T16:00:00", nil, "Broker", nil, nil, "1"],
        ])
        #expect(try scratch.query("""
            SELECT office_mls_id, office_key, office_name, phone, email, street_address, city, state_or_province,
                   postal_code, to_char(modification_timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS'),
                   extra::text
            FROM offices
            """) == [["OF1", "OK1", "North Realty", "(512) 555-0101", "desk@north.example.com", "1 Main St", "Austin",
                      "TX", "78701", "2026-10-01T08:00:00", "{}"]])
        #expect(try scratch.query("""
            SELECT list_office_mls_id, rooms::text, unit_types::text, extra::text FROM listings
            """) == [["OF1",
                      #"[{"RoomType": "Kitchen", "RoomLevel": "Main", "RoomLength": 14.5}, {"RoomType": "Den"}]"#,
                      #"[{"UnitTypeType": "Apartment", "UnitTypeBedsTotal": 2, "UnitTypeActualRent": 1850.00}]"#,
                      // What the office's fields do not read of the listing's own ListOffice stays in its extra.
                      #"{"ListOffice": {"OfficeStatus": "Active"}}"#]])
        #expect(summary.load.rows[.media] == RowCounts(inserted: 2))
        #expect(summary.load.rows[.openHouse] == RowCounts(inserted: 2))
        #expect(summary.load.rows[.office] == RowCounts(inserted: 1))
        #expect(summary.json.contains(#""media":{"inserted":2,"updated":0,"unchanged":0,"stale":0,"deleted":0}"#))
        #expect(summary.text.contains("\n  media: inserted 2, updated 0, unchanged 0\n"))
        // The ledger keeps the counts with the stage timings.
        #expect(try scratch.query("""
            SELECT timings->>'media.inserted', timings->>'open_houses.inserted', timings->>'offices.inserted'
            FROM ingest_runs
            """) == [["2", "2", "1"]])
        // `runs show` reads them back: a line per table in the text, an object per table in JSON.
        let run = String(try #require(summary.runID))
        let shown = try CLI.run(["runs", "show", run, "--database", scratch.database])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("\n  offices: inserted 1, updated 0, unchanged 0\n  media: inserted 2, "
                                      + "updated 0, unchanged 0\n  open_houses: inserted 2, updated 0, unchanged 0\n"))
        let json = try CLI.run(["runs", "show", run, "--database", scratch.database, "--format", "json"])
        #expect(json.stdout.contains(#""media":{"inserted":2,"updated":0,"unchanged":0,"stale":0,"deleted":0}"#))
    }

    @Test func aListingsWinningCopyReplacesItsPhotosAndOtherCopiesLeaveThemAlone() throws {
        let scratch = try Self.scratch()
        let first = try scratch.run([
            Self.listing("L1", Self.photos([("A1", 1, "u/a1"), ("A2", 2, "u/a2"), ("A3", 3, "u/a3")])),
            Self.listing("L2", Self.photos([("B1", 1, "u/b1")])),
            Self.listing("L3", Self.photos([("C1", 1, "u/c1")])),
            Self.listing("L4", Self.photos([("D1", 1, "u/d1")])),
        ])
        #expect(first.status == .succeeded, "\(first.error ?? "")")
        #expect(first.load.rows[.media] == RowCounts(inserted: 6))
        let second = try scratch.run([
            // L1 drops A3 and changes A2's URL, nothing else: the listing is unchanged, its photos are not.
            Self.listing("L1", Self.photos([("A1", 1, "u/a1"), ("A2", 2, "u/a2-new")])),
            // L2 is recognised (the same record): its photo stays as it is.
            Self.listing("L2", Self.photos([("B1", 1, "u/b1")])),
            // L3's copy is older than the stored one: stale, its photos not written.
            Self.listing("L3", modified: "2026-10-01T10:00:00Z", price: 400_000,
                         Self.photos([("C9", 1, "u/c9")])),
            // L4 now lists no photo at all.
            Self.listing("L4", #""Media": []"#),
        ])
        #expect(second.status == .succeeded, "\(second.error ?? "")")
        #expect(second.load.recognized == 1)
        #expect(second.load.stale == 1)
        #expect(second.load.updated == 0)
        #expect(second.load.rows[.media] == RowCounts(updated: 1, unchanged: 1, deleted: 2))
        #expect(try scratch.media() == [
            ["A1", "L1", "1", "u/a1", "Photo", nil, nil, nil, nil, "1"],
            ["A2", "L1", "2", "u/a2-new", "Photo", nil, nil, nil, nil, "2"],
            ["B1", "L2", "1", "u/b1", "Photo", nil, nil, nil, nil, "1"],
            ["C1", "L3", "1", "u/c1", "Photo", nil, nil, nil, nil, "1"],
        ])
        // A feed whose records carry no media at all says nothing about them: nothing is deleted.
        let third = try scratch.run([Self.listing("L1", price: 510_000)])
        #expect(third.status == .succeeded, "\(third.error ?? "")")
        #expect(third.load.updated == 1)
        #expect(third.load.rows[.media] == nil)
        #expect(try scratch.media().count == 4)
    }

    @Test func theDedupeRulesWinnerBringsItsPhotosAndAMovedKeyFollowsIt() throws {
        // A first load: the later copy of L1 is older (it loses), the later copy of L2 newer (it wins); the window
        // of one key lets both repeats reach the merge (the first copies go straight into their tables).
        let scratch = try Self.scratch(stages: "{ dedupe: { window: 1, hold: 0 } }")
        let first = try scratch.run([
            Self.listing("L1", modified: "2026-11-02T10:00:00Z", Self.photos([("A1", 1, "u/a1-new")])),
            Self.listing("L2", modified: "2026-11-01T10:00:00Z", Self.photos([("B1", 1, "u/b1"), ("B2", 2, "u/b2")])),
            Self.listing("L1", modified: "2026-11-01T10:00:00Z", Self.photos([("A1", 1, "u/a1-old"),
                                                                              ("A9", 2, "u/a9")])),
            Self.listing("L2", modified: "2026-11-02T10:00:00Z", Self.photos([("B1", 1, "u/b1-new")])),
        ])
        #expect(first.status == .succeeded, "\(first.error ?? "")")
        #expect(try scratch.media().map { [$0[0], $0[1], $0[3]] } == [
            ["A1", "L1", "u/a1-new"], ["B1", "L2", "u/b1-new"],
        ])
        // A photo's key listed by another listing moves to it; within a copy a key listed twice is written once.
        let second = try scratch.run([
            Self.listing("L2", modified: "2026-11-03T10:00:00Z", Self.photos([("B1", 1, "u/b1-new"),
                                                                              ("A1", 2, "u/a1-moved"),
                                                                              ("A1", 3, "u/a1-moved-again")])),
        ])
        #expect(second.status == .succeeded, "\(second.error ?? "")")
        #expect(try scratch.media().map { [$0[0], $0[1], $0[2], $0[3]] } == [
            ["B1", "L2", "1", "u/b1-new"], ["A1", "L2", "3", "u/a1-moved-again"],
        ])
    }

    /// Listings merged while the parse goes on (batches of one record, a merge after each) bring their photos as
    /// the end's merge does: those of the copy that won, an older copy's left out.
    @Test func listingsMergedWhileParsingBringTheirPhotos() throws {
        // A mapping whose every field the records give: only a complete copy is merged during the parse.
        let mapping = """
            fields:
              listing_id:             { from: ListingId, type: text, required: true }
              standard_status:        { from: StandardStatus, type: text }
              list_price:             { from: ListPrice, type: money }
              modification_timestamp: { from: ModificationTimestamp, type: timestamp }
            embedded_media:
              - each: Media
                fields:
                  media_key:      { from: MediaKey, type: text }
                  media_order:    { from: Order, type: integer }
                  media_url:      { from: MediaURL, type: text }
                  media_category: { from: MediaCategory, type: text }
            """
        let scratch = try RESOScratch(mappingText: mapping, load: "{ mode: incremental, merge_while_parsing: 1 }",
                                      stages: "{ parse: { batch_size: 1 }, normalize: { batch_size: 1 }, "
                                          + "validate: { batch_size: 1 }, dedupe: { batch_size: 1, window: 1, "
                                          + "hold: 0 }, load: { batch_size: 1 } }")
        let first = try scratch.run([Self.listing("L1", Self.photos([("A1", 1, "u/a1")])),
                                     Self.listing("L2", Self.photos([("B1", 1, "u/b1")]))])
        #expect(first.status == .succeeded, "\(first.error ?? "")")
        let second = try scratch.run([
            Self.listing("L1", modified: "2026-11-02T10:00:00Z", Self.photos([("A2", 1, "u/a2")])),
            Self.listing("L2", modified: "2026-11-03T10:00:00Z", Self.photos([("B1", 1, "u/b1-new")])),
            Self.listing("L3", Self.photos([("C1", 1, "u/c1")])),
            // An older copy of L2 beyond the dedupe window: the end's merge takes L2 back from the merges during
            // the parse and resolves both copies; the newer wins, this one's photo is not written.
            Self.listing("L2", modified: "2026-11-02T10:00:00Z", Self.photos([("B9", 1, "u/b9")])),
        ])
        #expect(second.status == .succeeded, "\(second.error ?? "")")
        #expect(second.load.mergedWhileParsing == 2)
        #expect(second.load.rows[.media] == RowCounts(inserted: 2, updated: 1, deleted: 1))
        #expect(try scratch.media().map { [$0[0], $0[1], $0[3]] } == [
            ["A2", "L1", "u/a2"], ["B1", "L2", "u/b1-new"], ["C1", "L3", "u/c1"],
        ])
    }

    @Test func photosWithoutKeysAreKeyedByTheirListingAndPlace() throws {
        let scratch = try Self.scratch()
        let summary = try scratch.run([Self.listing("L1", """
            "Media": [{"MediaURL": "u/1"}, {"MediaURL": "u/2", "Order": 7}, {}]
            """)])
        #expect(summary.status == .succeeded, "\(summary.error ?? "")")
        #expect(try scratch.media().map { [$0[0], $0[2], $0[3]] } == [["L1/1", "1", "u/1"], ["L1/7", "7", "u/2"]])
    }

    @Test func aDryRunWritesEachListingsRowsAfterIt() throws {
        let scratch = try Self.scratch()
        let page = try scratch.page([Self.listing("L1", Self.photos([("A1", 1, "u/a1")]) + #", "OpenHouse": "# + """
            [{"OpenHouseKey": "OH1", "OpenHouseStartTime": "2026-11-08T13:00:00Z"}]
            """)])
        let out = scratch.dir.appendingPathComponent("out.jsonl")
        var options = RunOptions()
        options.dryRun = true
        options.input = page.path
        options.output = out.path
        let summary = try PipelineRunner(config: try scratch.config(), options: options).run()
        #expect(summary.status == .succeeded, "\(summary.error ?? "")")
        let lines = try String(contentsOf: out, encoding: .utf8).split(separator: "\n")
        #expect(lines.map { $0.prefix(18) } == [#"{"type":"listing","#, #"{"type":"media","a"#,
                                                #"{"type":"open_hous"#])
        // Each row at its listing's place in the feed (the page's line 2).
        let at = #""at":"\#(page.path):2:1","#
        #expect(lines[1].hasPrefix(#"{"type":"media","# + at + #""media_key":"A1","listing_id":"L1","#
                                   + #""media_order":1,"media_url":"u/a1","media_category":"Photo","content_hash":"#))
        #expect(lines[2].hasPrefix(#"{"type":"open_house","# + at + #""open_house_key":"OH1","#
                                   + #""listing_id":"L1","start_at":"2026-11-08T13:00:00Z","content_hash":"#))
    }
}


extension RESOScratch {
    /// `media`: key, listing, order, URL, category, description, time, width, height, the run that changed it.
    func media() throws -> [[String?]] {
        try query("""
            SELECT media_key, listing_id, media_order::text, media_url, media_category, short_description,
                   to_char(modification_timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS'),
                   image_width::text, image_height::text, last_changed_run::text
            FROM media ORDER BY listing_id, media_order, media_key
            """)
    }

    /// `open_houses`: key, listing, start, end, type, status, remarks, the run that changed it.
    func openHouses() throws -> [[String?]] {
        try query("""
            SELECT open_house_key, listing_id, to_char(start_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS'),
                   to_char(end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS'), open_house_type, status,
                   remarks, last_changed_run::text
            FROM open_houses ORDER BY listing_id, start_at
            """)
    }
}
