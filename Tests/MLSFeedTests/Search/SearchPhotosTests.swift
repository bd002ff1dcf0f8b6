import Foundation
import MLSFeed
import Postgres
import PostgresTestSupport
import Testing

/// The search rows' `photo_url` (every listing search), and `search.listing`'s photos, open houses to come and
/// office (migrations 18 and 19), on a few rows written here.
@Suite(.ownThread) struct SearchPhotosTests {
    /// A migrated database with two listings (`P1` with three media and two open houses, one past; `P2` with none),
    /// and `P1`'s office.
    static func database() throws -> Connection {
        try Connection(conninfo())
    }

    /// The conninfo of such a database.
    static func conninfo() throws -> String {
        let conninfo = try TestDatabase.migrated()
        let connection = try Connection(conninfo)
        try connection.executeScript("""
            INSERT INTO listings (source, listing_id, standard_status, property_type, list_price, street_number,
                                  street_name, city, postal_code, latitude, longitude, list_office_mls_id,
                                  list_office_name, extra, content_hash, first_seen_run, last_changed_run)
            VALUES ('s', 'P1', 'Active', 'Residential', 500000, '12', 'Elm St', 'Austin', '78704', 30.25, -97.75,
                    'OF1', 'North', '{}', 'h', 1, 1),
                   ('s', 'P2', 'Active', 'Residential', 600000, '12', 'Elm Ct', 'Austin', '78704', 30.26, -97.75,
                    NULL, NULL, '{}', 'h', 1, 1);
            INSERT INTO media (source, media_key, listing_id, media_order, media_url, media_category,
                               short_description, content_hash, first_seen_run, last_changed_run)
            VALUES ('s', 'V', 'P1', 1, 'u/video', 'Video', NULL, 'h', 1, 1),
                   ('s', 'B', 'P1', 2, 'u/2', 'Photo', 'Kitchen', 'h', 1, 1),
                   ('s', 'A', 'P1', 2, 'u/2a', NULL, NULL, 'h', 1, 1),
                   ('s', 'N', 'P1', NULL, 'u/none', 'Photo', NULL, 'h', 1, 1);
            INSERT INTO open_houses (source, open_house_key, listing_id, start_at, end_at, open_house_type, status,
                                     remarks, content_hash, first_seen_run, last_changed_run)
            VALUES ('s', 'OLD', 'P1', now() - interval '2 days', now() - interval '2 days' + interval '2 hours',
                    'Public', 'Active', NULL, 'h', 1, 1),
                   ('s', 'NOW', 'P1', now() - interval '1 hour', now() + interval '1 hour', 'Public', 'Active',
                    'Come in', 'h', 1, 1),
                   ('s', 'NEXT', 'P1', now() + interval '6 days', NULL, 'Broker', 'Active', NULL, 'h', 1, 1);
            INSERT INTO offices (source, office_mls_id, office_name, phone, content_hash, first_seen_run,
                                 last_changed_run)
            VALUES ('s', 'OF1', 'North Realty', '(512) 555-0101', 'h', 1, 1);
            """)
        return conninfo
    }

    @Test func everySearchRowCarriesItsFirstPhoto() throws {
        let db = try Self.database()
        let expected = [["P1", "u/2a"], ["P2", nil]]
        #expect(try db.execute("SELECT listing_id, photo_url FROM search.quick('12', 'elm') ORDER BY 1").rows
            == expected)
        #expect(try db.execute("SELECT listing_id, photo_url FROM search.detailed(city => 'Austin') ORDER BY 1").rows
            == expected)
        #expect(try db.execute("SELECT listing_id, photo_url FROM search.near(30.25, -97.75, 5) ORDER BY 1").rows
            == expected)
        // Only search.listing fills the listing's photos, open houses and office.
        #expect(try db.execute("""
            SELECT photos IS NULL AND open_houses IS NULL AND office_name IS NULL AND office_phone IS NULL
            FROM search.detailed(city => 'Austin')
            """).rows == [["t"], ["t"]])
    }

    @Test func theListingCarriesItsPhotosOpenHousesToComeAndOffice() throws {
        let db = try Self.database()
        let row = try db.execute("""
            SELECT listing_id, photo_url, jsonb_path_query_array(photos, '$[*].media_key')::text,
                   (photos->1)::text, jsonb_path_query_array(open_houses, '$[*].open_house_key')::text,
                   open_houses->0->>'remarks', office_name, office_phone, list_office_name
            FROM search.listing('s', 'P1')
            """).rows
        #expect(row == [["P1", "u/2a", #"["V", "A", "B", "N"]"#,
                         #"{"media_key": "A", "media_url": "u/2a", "media_order": 2, "media_category": null, "#
                            + #""short_description": null}"#,
                         #"["NOW", "NEXT"]"#, "Come in", "North Realty", "(512) 555-0101", "North"]])
        #expect(try db.execute("""
            SELECT photo_url, photos, open_houses, office_name FROM search.listing('s', 'P2')
            """).rows == [[nil, nil, nil, nil]])
        // The columns are appended after every earlier one.
        let names = try db.execute("""
            SELECT attname FROM pg_attribute WHERE attrelid = 'search.listing_row'::regclass AND attnum > 0
            ORDER BY attnum
            """).rows.compactMap { $0[0] }
        #expect(Array(names.suffix(7)) == ["distance_miles", "cursor", "photo_url", "photos", "open_houses",
                                           "office_name", "office_phone"])
    }

    /// `mlsfeed search mls` prints what `search.listing` returns: the photos and open houses as JSON arrays, the
    /// office's name and phone, the first photo's URL; another search prints only `photo_url`.
    @Test func theSearchCommandPrintsThemAsJSON() throws {
        let db = try Self.conninfo()
        let listing = try CLI.run(["search", "mls", "P1", "--source", "s", "--format", "json", "--database", db])
        #expect(listing.status == 0, "\(listing.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [[String: Any]])
        let row = try #require(rows.first)
        #expect(rows.count == 1)
        #expect(row["photo_url"] as? String == "u/2a")
        let photos = try #require(row["photos"] as? [[String: Any]])
        #expect(photos.map { $0["media_key"] as? String } == ["V", "A", "B", "N"])
        #expect(photos.map { ($0["media_order"] as? NSNumber)?.intValue } == [1, 2, 2, nil])
        #expect(photos[2]["short_description"] as? String == "Kitchen")
        let openHouses = try #require(row["open_houses"] as? [[String: Any]])
        #expect(openHouses.map { $0["open_house_key"] as? String } == ["NOW", "NEXT"])
        #expect(row["office_name"] as? String == "North Realty")
        #expect(row["office_phone"] as? String == "(512) 555-0101")

        let quick = try CLI.run(["search", "quick", "--street-number", "12", "--street-name", "elm", "--format", "csv",
                                 "--database", db])
        #expect(quick.status == 0, "\(quick.stderr)")
        let lines = quick.stdout.components(separatedBy: "\r\n").dropLast()
        #expect(lines.first?.hasSuffix(",off_market_at,photo_url") == true)
        // By street name: Elm Ct (P2, no photo), then Elm St (P1).
        #expect(lines.dropFirst().map { $0.components(separatedBy: ",").last } == ["", "u/2a"])
    }
}
