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
