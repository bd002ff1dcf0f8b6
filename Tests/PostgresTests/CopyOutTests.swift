import Postgres
import PostgresTestSupport
import Testing

@Suite struct CopyOutTests {
    @Test func streamsEveryRowInTextFormatWithoutItsNewline() throws {
        let connection = try Connection(TestDatabase.fresh())
        try connection.execute("CREATE TABLE t (id int, v text)")
        try connection.execute("INSERT INTO t SELECT i, 'row ' || i FROM generate_series(1, 50000) i")
        try connection.execute("INSERT INTO t VALUES (0, NULL), (-1, E'tab\\there')")
        var lines: [String] = []
        let copied = try connection.copyOut("COPY (SELECT id, v FROM t ORDER BY id) TO STDOUT") { line in
            lines.append(String(decoding: line, as: UTF8.self))
        }
        #expect(copied == 50_002)
        #expect(lines.count == 50_002)
        #expect(lines.prefix(3) == ["-1\ttab\\there", "0\t\\N", "1\trow 1"])
        #expect(lines.last == "50000\trow 50000")
    }

    @Test func streamsEveryRowInBinaryFormat() throws {
        let connection = try Connection(TestDatabase.fresh())
        var rows: [[Int64?]] = []
        let copied = try connection.copyOutBinary("""
            COPY (SELECT CASE WHEN i = 3 THEN NULL ELSE i * 10000000000 END, timestamptz '2000-01-01 00:00:01Z' + i
                  * interval '1 microsecond' FROM generate_series(-1, 20000) i ORDER BY i) TO STDOUT (FORMAT binary)
            """) { row in
            rows.append([row.int64(0), row.int64(1)])
        }
        #expect(copied == 20_002)
        #expect(rows.count == 20_002)
        #expect(rows.prefix(5) == [[-10_000_000_000, 999_999], [0, 1_000_000], [10_000_000_000, 1_000_001],
                                   [20_000_000_000, 1_000_002], [nil, 1_000_003]])
        #expect(rows.last == [200_000_000_000_000, 1_020_000])
    }

    @Test func fieldsAreReadAsTheirTypesBinaryBytes() throws {
        let connection = try Connection(TestDatabase.fresh())
        var values: [Int64?] = []
        try connection.copyOutBinary("COPY (SELECT 'abcdefgh'::text, 'x'::text) TO STDOUT (FORMAT binary)") { row in
            values = [row.int64(0), row.int64(1)]
        }
        // Eight bytes of text read as an integer: the caller knows its columns' types.
        #expect(values == [0x6162_6364_6566_6768, nil])
        #expect(try connection.execute("SELECT 1").rows == [["1"]])
    }

    @Test func consumerErrorIsRethrownAndTheConnectionStaysUsable() throws {
        struct Stop: Error {}
        let connection = try Connection(TestDatabase.fresh())
        var seen = 0
        #expect(throws: Stop.self) {
            try connection.copyOut("COPY (SELECT generate_series(1, 1000)) TO STDOUT") { _ in
                seen += 1
                if seen == 10 { throw Stop() }
            }
        }
        #expect(seen == 10)
        #expect(try connection.execute("SELECT 1").rows == [["1"]])
    }

    @Test func serverErrorThrowsTypedError() throws {
        let connection = try Connection(TestDatabase.fresh())
        let error = try #require(throws: PostgresError.self) {
            try connection.copyOut("COPY (SELECT 1 / (g - 3) FROM generate_series(1, 5) g) TO STDOUT") { _ in }
        }
        #expect(error.code == .other("22012"))
        #expect(error.message == "division by zero")
        #expect(try connection.execute("SELECT 2").rows == [["2"]])
    }
}
