import Postgres
import PostgresTestSupport
import Testing

@Suite struct BinaryCopyRowsTests {
    static func numeric(_ text: String, into rows: inout BinaryCopyRows) -> Bool {
        var text = text
        return text.withUTF8 { rows.numeric($0) }
    }

    @Test func bytesAreTheBinaryCopyFormat() {
        var rows = BinaryCopyRows()
        rows.beginRow(fields: 5)
        rows.int32(1)
        rows.text("a")
        rows.null()
        #expect(Self.numeric("-12345.678", into: &rows))
        let json = Array(#"{"k":1}"#.utf8)
        json.withUnsafeBufferPointer { rows.jsonb($0) }
        let header: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]
        let row: [UInt8] = [0, 5]
            + [0, 0, 0, 4, 0, 0, 0, 1]
            + [0, 0, 0, 1, 0x61]
            + [0xFF, 0xFF, 0xFF, 0xFF]
            // 3 digits, weight 1, negative, scale 3: 0001 2345 6780.
            + [0, 0, 0, 14, 0, 3, 0, 1, 0x40, 0x00, 0, 3, 0, 1, 0x09, 0x29, 0x1A, 0x7C]
            + [0, 0, 0, 8, 1] + Array(#"{"k":1}"#.utf8)
        #expect(rows.bytes == header + row)
        #expect(rows.count == 1)
        rows.removeAll()
        #expect(rows.bytes == header)
        #expect(rows.count == 0)
    }

    @Test func aPayloadIsHeaderRowsAndTrailerAndABufferIsReused() {
        var rows = BinaryCopyRows()
        rows.beginRow(fields: 1)
        rows.int32(9)
        let header = rows.bytes.prefix(19)
        let payload = rows.takePayload()
        #expect(payload == Array(header) + [0, 1, 0, 0, 0, 4, 0, 0, 0, 9] + [0xFF, 0xFF])
        #expect(rows.bytes == Array(header))
        #expect(rows.count == 0)
        var buffer = payload
        buffer.reserveCapacity(4096)
        let capacity = buffer.capacity
        let reused = BinaryCopyRows(reusing: buffer)
        #expect(reused.bytes == Array(header))
        #expect(reused.bytes.capacity == capacity)
    }

    /// Plain decimal text, read back exactly as `numeric_in` reads the same text (the oracle), scale included.
    @Test(arguments: [
        "0", "0.00", "-0", "-0.50", "1", "12.5", "549000", "12345.678", "0.00005", "100000000", "-999999999999.99",
        "00012.3400", "10000", "9999", "0.0001", "123456789012345678901234567890.123456789012345678901234567890",
    ])
    func numericsReadBackAsTheirText(text: String) throws {
        let connection = try Connection(TestDatabase.fresh())
        try connection.execute("CREATE TABLE t (n numeric, money numeric(14,2))")
        var rows = BinaryCopyRows()
        rows.beginRow(fields: 2)
        #expect(Self.numeric(text, into: &rows))
        let fits = text.count <= 16
        if fits { #expect(Self.numeric(text, into: &rows)) } else { rows.null() }
        #expect(try connection.copyIn("COPY t FROM STDIN (FORMAT binary)", rows: rows) == 1)
        let expected = try connection.execute("SELECT $1::numeric::text, CASE WHEN $2 THEN $1::numeric(14,2)::text END",
                                              [text, fits ? "true" : "false"]).rows
        #expect(try connection.execute("SELECT n::text, money::text FROM t").rows == expected)
    }

    @Test(arguments: ["", "-", "1.", ".5", "+1", "1e5", "1,000", " 1", "1 ", "NaN", "--1", "1.2.3", "١"])
    func textNotPlainDecimalIsRefusedAndNothingAppended(text: String) {
        var rows = BinaryCopyRows()
        #expect(!Self.numeric(text, into: &rows))
        #expect(rows.bytes == BinaryCopyRows().bytes)
    }

    @Test func everyTypeReadsBack() throws {
        let connection = try Connection(TestDatabase.fresh())
        try connection.execute("""
            CREATE TABLE t (i integer, b bigint, f double precision, d date, ts timestamptz, s text, j jsonb)
            """)
        var rows = BinaryCopyRows()
        for (i, b, f, d, ts, s) in [(Int32.min, Int64.min, -0.0, Int32(-1), Int64(-1), "tab\tand\\N"),
                                     (Int32.max, Int64.max, 1e-300, 8825, 459_971_197_263_000, "ünïcødé 🏠")] {
            rows.beginRow(fields: 7)
            rows.int32(i)
            rows.int64(b)
            rows.float64(f)
            rows.date(daysSince2000: d)
            rows.timestamp(microsecondsSince2000: ts)
            rows.text(s)
            let json = Array(#"{"b": [1, "\u00e9"], "a": null}"#.utf8)
            json.withUnsafeBufferPointer { rows.jsonb($0) }
        }
        #expect(try connection.copyIn("COPY t FROM STDIN (FORMAT binary)", rows: rows) == 2)
        let read = try connection.execute("""
            SELECT i, b, f, d, ts AT TIME ZONE 'UTC', s, j FROM t ORDER BY i
            """).rows
        #expect(read == [
            ["-2147483648", "-9223372036854775808", "-0", "1999-12-31", "1999-12-31 23:59:59.999999", "tab\tand\\N",
             #"{"a": null, "b": [1, "é"]}"#],
            ["2147483647", "9223372036854775807", "1e-300", "2024-02-29", "2014-07-29 17:46:37.263", "ünïcødé 🏠",
             #"{"a": null, "b": [1, "é"]}"#],
        ])
    }

    @Test func badBinaryDataFailsTheCopyAndTheConnectionStaysUsable() throws {
        let connection = try Connection(TestDatabase.fresh())
        try connection.execute("CREATE TABLE t (i integer)")
        var rows = BinaryCopyRows()
        rows.beginRow(fields: 1)
        rows.int64(1)
        let error = try #require(throws: PostgresError.self) {
            try connection.copyIn("COPY t FROM STDIN (FORMAT binary)", rows: rows)
        }
        #expect(error.code == .invalidBinaryRepresentation)
        #expect(try connection.execute("SELECT count(*) FROM t").rows == [["0"]])
    }
}
