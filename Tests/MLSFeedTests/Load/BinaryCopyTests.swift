import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// Listings and agents go to the server as binary COPY rows. Whatever the values, the rows the server stores must
/// be exactly those the text COPY of the same records stores (the server's own input functions are the oracle),
/// and a value without a binary form sends its batch as text, so the server judges it as before.
@Suite(.ownThread) struct BinaryCopyTests {
    typealias F = LoadFixtures

    /// Varied listings: every column type, edge values, NULLs, text that text COPY escapes.
    static func listings() -> [NormalizedRecord] {
        let cases: [[String: Value]] = [
            ["list_price": .decimal("0"), "original_list_price": .decimal("0.00"), "close_price": .decimal("1"),
             "living_area": .decimal("12.5"), "lot_size_square_feet": .decimal("0.00005"),
             "listing_contract_date": .date("2000-01-01"),
             "modification_timestamp": .timestamp("2000-01-01T00:00:00Z"),
             "bedrooms_total": .integer(0), "year_built": .integer(-1), "latitude": .double(0),
             "longitude": .double(-0.0)],
            ["list_price": .decimal("999999999999.99"), "original_list_price": .decimal("-12345.6"),
             "close_price": .decimal("100000000"),
             "living_area": .decimal("123456789012345678901234567890.123456789"),
             "lot_size_square_feet": .integer(43560), "listing_contract_date": .date("1999-12-31"),
             "modification_timestamp": .timestamp("1999-12-31T23:59:59.999999Z"),
             "bedrooms_total": .integer(Int64(Int32.max)), "bathrooms_full": .integer(Int64(Int32.min)),
             "latitude": .double(32.715736), "longitude": .double(-117.161087)],
            ["list_price": .decimal("00012.3400"), "living_area": .decimal("-0.5"),
             "lot_size_square_feet": .decimal("-0"), "listing_contract_date": .date("2024-02-29"),
             "modification_timestamp": .timestamp("2014-07-29T17:46:37.263Z"),
             "latitude": .double(1e-300), "longitude": .double(179.99999999999997)],
            ["listing_contract_date": .date("1900-03-01"),
             "modification_timestamp": .timestamp("1970-01-01T00:00:00.5Z"),
             "street_name": .text("tab\there, line\nbreak, cr\r, back\\slash, \\N"), "city": .text("ünïcødé 🏠"),
             "public_remarks": .text(""), "unit_number": .boolean(true), "postal_code": .integer(92101),
             "mls_area": .decimal("7.50"), "county_or_parish": .double(2.5), "owner_name": .date("2026-11-30")],
            ["listing_contract_date": .date("2099-12-31"),
             "modification_timestamp": .timestamp("2262-04-11T23:47:16.854775Z")],
        ]
        return cases.enumerated().map { index, values in
            var all = values
            all["listing_id"] = .text("L\(index)")
            var record = NormalizedRecord(entity: .listing, values: all,
                                          extra: [RawField("Note", "quote \" and \\ and \t"), RawField("Ünï", "🏠")],
                                          position: SourcePosition(file: "feed.xml", line: index + 1, column: 1),
                                          ordinal: index, contentHash: index == 1 ? "" : "hash\(index)",
                                          rawHash: index == 2 ? nil : UInt64.max - UInt64(index))
            record.absent = index == 0 ? 1 << 63 : UInt64(index)
            return record
        }
    }

    /// Two copies of the listings' staging table, one filled by text COPY and one by binary COPY.
    static func tables(_ connection: Connection) throws {
        for name in ["by_text", "by_binary"] {
            let create = StagingTables.create(.listing)
                .replacingOccurrences(of: "CREATE TEMP TABLE staging_listings", with: "CREATE TABLE \(name)")
                .replacingOccurrences(of: " ON COMMIT DROP", with: "")
            try connection.execute(create)
        }
    }

    @Test func binaryRowsStoreWhatTextRowsStore() throws {
        let connection = try Connection(TestDatabase.migrated())
        try Self.tables(connection)
        var extra = JSONText.ObjectWriter()
        var json: [UInt8] = []
        let records = Self.listings() + [F.listing("L9", ordinal: 9)]
        let copy = StagingTables.copy(.listing)
        let textCopy = copy.replacingOccurrences(of: "staging_listings", with: "by_text")
        let byText = try connection.copyIn(textCopy) { writer in
            for record in records {
                try StagingTables.write(record, first: .ordinal, extra: &extra, json: &json, to: writer)
            }
        }
        var rows = BinaryCopyRows()
        for record in records {
            let appended = StagingTables.append(record, first: .ordinal, extra: &extra, json: &json, to: &rows)
            #expect(appended)
        }
        #expect(rows.count == records.count)
        let byBinary = try connection.copyIn(copy.replacingOccurrences(of: "staging_listings", with: "by_binary")
                                                 + " (FORMAT binary)", rows: rows)
        #expect(byText == records.count)
        #expect(byBinary == records.count)
        let read = "SELECT t::text FROM %@ t ORDER BY ordinal"
        let text = try connection.execute(read.replacingOccurrences(of: "%@", with: "by_text")).rows
        let binary = try connection.execute(read.replacingOccurrences(of: "%@", with: "by_binary")).rows
        #expect(binary == text)
        #expect(text.count == records.count)
        // The oracle is not vacuous: the values arrived, fractions and signs included.
        #expect(try connection.execute("""
            SELECT living_area::text, modification_timestamp AT TIME ZONE 'UTC', raw_hash, absent
            FROM by_binary WHERE ordinal = 1
            """).rows == [["123456789012345678901234567890.123456789", "1999-12-31 23:59:59.999999",
                           "-2", "1"]])
    }

    @Test func aFirstLoadAndAStagedRunStoreTheSameRowsInBinary() throws {
        // The first load copies straight into `listings` (source first, run ids last); the second run stages every
        // record (their content changed) and merges them.
        let db = try TestDatabase.migrated()
        let records = Self.listings().map { record in
            var record = record
            record.absent = 0
            return record
        }
        let read = """
            SELECT listing_id, list_price::text, living_area::text, lot_size_square_feet::text,
                   listing_contract_date::text, modification_timestamp AT TIME ZONE 'UTC', bedrooms_total,
                   latitude::text, longitude::text, street_name, postal_code, extra::text, raw_hash
            FROM listings ORDER BY listing_id
            """
        func load(_ records: [NormalizedRecord]) throws -> LoadResult {
            let session = try LoadSession(conninfo: db, options: F.options())
            try session.write(records)
            #expect(session.textCopies == 0)
            return try session.commit(RunTotals(read: records.count))
        }
        let first = try load(records)
        #expect(first.inserted == records.count)
        let loaded = try F.query(db, read)
        let second = try load(records.map { record in
            var record = record
            record.contentHash += "-again"
            return record
        })
        #expect(second.inserted == 0)
        #expect(second.updated == records.count)
        #expect(try F.query(db, read) == loaded)
        #expect(loaded.count == records.count)
        #expect(loaded[1] == ["L1", "999999999999.99", "123456789012345678901234567890.123456789", "43560",
                              "1999-12-31", "1999-12-31 23:59:59.999999", "2147483647", "32.715736", "-117.161087",
                              nil, nil, #"{"Note": "quote \" and \\ and \t", "Ünï": "🏠"}"#, "-2"])
        #expect(loaded[3][9] == "tab\there, line\nbreak, cr\r, back\\slash, \\N")
        #expect(loaded[3][10] == "92101")
    }

    /// Values with no binary form for their column: a kind the column does not take, or text out of canonical form.
    @Test(arguments: [
        (Column.SQLType.integer, Value.integer(Int64(Int32.max) + 1)),
        (.integer, .text("3")),
        (.integer, .decimal("3")),
        (.numeric, .decimal("1e5")),
        (.numeric, .decimal(".5")),
        (.numeric, .decimal("1.")),
        (.numeric, .decimal("+1")),
        (.numeric, .decimal("1,000")),
        (.numeric, .decimal("NaN")),
        (.numeric, .decimal("")),
        (.numeric, .double(1.5)),
        (.double, .decimal("1.5")),
        (.date, .date("2023-02-29")),
        (.date, .date("2023-13-01")),
        (.date, .date("2023-1-01")),
        (.date, .timestamp("2023-01-01T00:00:00Z")),
        (.timestamptz, .timestamp("2026-01-01 00:00:00Z")),
        (.timestamptz, .timestamp("2026-01-01T00:00:00+01:00")),
        (.timestamptz, .timestamp("2026-01-01T00:00:60Z")),
        (.timestamptz, .timestamp("2026-01-01T00:00:00.Z")),
        (.timestamptz, .timestamp("2026-01-01T00:00:00.1234567Z")),
        (.timestamptz, .date("2026-01-01")),
    ] as [(Column.SQLType, Value)])
    func valuesWithoutABinaryFormAreRefused(type: Column.SQLType, value: Value) {
        var rows = BinaryCopyRows()
        let appended = rows.append(value, as: type)
        #expect(!appended)
    }

    @Test(arguments: [
        ("2000-01-01", 0), ("2000-01-02", 1), ("1999-12-31", -1), ("2000-03-01", 60), ("2024-02-29", 8825),
        ("1970-01-01", -10957), ("0001-01-01", -730119),
    ] as [(String, Int32)])
    func datesCountDaysFrom2000(text: String, days: Int32) {
        var text = text
        #expect(text.withUTF8(BinaryCopyRows.daysSince2000) == days)
    }

    @Test(arguments: [
        ("2000-01-01T00:00:00Z", 0), ("2000-01-01T00:00:00.000001Z", 1), ("2000-01-01T00:00:01.5Z", 1_500_000),
        ("1999-12-31T23:59:59.999999Z", -1), ("1970-01-01T00:00:00Z", -946_684_800_000_000),
        ("2014-07-29T17:46:37.263Z", 459_971_197_263_000),
    ] as [(String, Int64)])
    func timestampsCountMicrosecondsFrom2000(text: String, micros: Int64) {
        var text = text
        #expect(text.withUTF8(BinaryCopyRows.microsecondsSince2000) == micros)
    }

    @Test(arguments: [
        (Int64(0), Int64(946_684_800_000_000)),  // 2000-01-01
        (-946_684_800_000_001, -1),  // 1969-12-31T23:59:59.999999Z
        (Int64.max, Int64.max), (Int64.min, Int64.min),  // infinity, -infinity
    ])
    func binaryTimestampsReadBackCountFrom1970(since2000: Int64, since1970: Int64) {
        #expect(BinaryCopyRows.unixMicroseconds(since2000) == since1970)
    }

    /// The loader writes `extra`'s keys in the order jsonb stores them (so the server's sort of each row's keys
    /// finds them sorted): the oracle is the order in which PostgreSQL itself lists the stored keys.
    @Test(arguments: [
        ["ListAgentFullName", "Pool", "View", "APN", "Zoning", "TaxYear", "HOAFee", "Stories"],
        ["b", "a", "ab", "aa", "é", "zz", "Z", "z", "~", "日本", "ÿ", "quo\"te", "back\\slash", "tab\t"],
        ["only"],
    ])
    func extraKeysGoInTheOrderJSONBStoresThem(keys: [String]) throws {
        let connection = try Connection(TestDatabase.migrated())
        var writer = JSONText.ObjectWriter(order: .storage)
        var out: [UInt8] = []
        writer.append(keys.map { RawField($0, "v") }, to: &out)
        let written = String(decoding: out, as: UTF8.self)
        let stored = try connection.execute("""
            SELECT k FROM jsonb_object_keys($1::jsonb) WITH ORDINALITY AS t(k, n) ORDER BY n
            """, [written]).rows.map { $0[0] ?? "" }
        #expect(stored.count == keys.count)
        #expect(written == "{" + stored.map { JSONText.string($0) + #":"v""# }.joined(separator: ",") + "}")
    }

    /// A value the binary form refuses sends its batch as text: the server's input function judges it, with its
    /// own message, in a first load and in a staged run alike.
    @Test(arguments: [true, false])
    func aValueWithoutABinaryFormGoesAsTextAndTheServerJudgesIt(firstLoad: Bool) throws {
        let db = try TestDatabase.migrated()
        if !firstLoad { try F.load(db, [F.listing("Z")]) }
        var odd = F.listing("A", ordinal: 1)
        odd.values["bedrooms_total"] = .text("many")
        let session = try LoadSession(conninfo: db, options: F.options())
        let error = try #require(throws: PostgresError.self) {
            try session.write([F.listing("B", ordinal: 0), odd])
            // The COPY is queued: its failure is thrown by the next call on the connection.
            _ = try session.commit(RunTotals(read: 2))
        }
        session.fail("stopped")
        #expect(session.textCopies == 1)
        #expect(error.code == .invalidTextRepresentation)
        #expect(error.message == "invalid input syntax for type integer: \"many\"")
    }
}
