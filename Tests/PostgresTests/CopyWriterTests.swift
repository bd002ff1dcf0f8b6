import Foundation
import Postgres
import PostgresTestSupport
import Testing

@Suite struct CopyWriterTests {
    @Test func roundTripsEscapedTextAndNulls() throws {
        let connection = try Connection(TestDatabase.fresh())
        try connection.execute("CREATE TABLE t (id int, v text)")
        let values: [String?] = ["plain", "tab\there", "line\nbreak", "cr\rhere", "back\\slash", "\\N", nil, "",
                                 "ünïcødé 🏠", "\\at the start", "at the end\\", "a\\b\tc\nd\re", "\t\t\\\\",
                                 #"{"k":"say \"hi\"\n"}"#]
        let copied = try connection.copyIn("COPY t (id, v) FROM STDIN") { writer in
            for (index, value) in values.enumerated() { try writer.writeRow([String(index), value]) }
        }
        #expect(copied == values.count)
        let rows = try connection.execute("SELECT v FROM t ORDER BY id").rows.map { $0[0] }
        #expect(rows == values)
    }

    @Test(arguments: [0, 7, 10, 99, 100, 123_456_789, -1, -10, -987_654, Int.max, Int.min])
    func writesAnIntegerFieldAsItsDecimalDigits(value: Int) throws {
        let connection = try Connection(TestDatabase.fresh())
        try connection.execute("CREATE TABLE t (n bigint, s text, after text)")
        try connection.copyIn("COPY t FROM STDIN") { writer in
            writer.field(value)
            writer.field(value)
            writer.field("next")
            try writer.endRow()
        }
        // Read back as a number and as the text it was written as: exactly String(value).
        let rows = try connection.execute("SELECT n::text, s, after FROM t").rows
        #expect(rows == [[String(value), String(value), "next"]])
    }

    @Test func copiesManyRowsAcrossBufferFlushes() throws {
        let connection = try Connection(TestDatabase.fresh())
        try connection.execute("CREATE TABLE t (id int, v text)")
        let filler = String(repeating: "x", count: 200)
        let copied = try connection.copyIn("COPY t FROM STDIN") { writer in
            for index in 0..<20_000 { try writer.writeRow([String(index), filler]) }
        }
        #expect(copied == 20_000)
        #expect(try connection.execute("SELECT count(*), sum(length(v)) FROM t").rows == [["20000", "4000000"]])
    }

    @Test func badDataFailsTheCopyAndTheConnectionStaysUsable() throws {
        let connection = try Connection(TestDatabase.fresh())
        try connection.execute("CREATE TABLE t (id int)")
        let error = try #require(throws: PostgresError.self) {
            try connection.copyIn("COPY t FROM STDIN") { writer in
                try writer.writeRow(["1"])
                try writer.writeRow(["two"])
            }
        }
        #expect(error.code == .invalidTextRepresentation)
        #expect(error.message == "invalid input syntax for type integer: \"two\"")
        #expect(try connection.execute("SELECT count(*) FROM t").rows == [["0"]])
    }

    @Test func producerErrorAbortsTheCopy() throws {
        struct Stop: Error {}
        let connection = try Connection(TestDatabase.fresh())
        try connection.execute("CREATE TABLE t (id int)")
        #expect(throws: Stop.self) {
            try connection.copyIn("COPY t FROM STDIN") { writer in
                try writer.writeRow(["1"])
                throw Stop()
            }
        }
        #expect(try connection.execute("SELECT count(*) FROM t").rows == [["0"]])
    }

    @Test func killedConnectionMidCopyThrowsInsteadOfHanging() throws {
        let database = try TestDatabase.fresh()
        let connection = try Connection(database)
        let killer = try Connection(database)
        try connection.execute("CREATE TABLE t (id int, v text)")
        let filler = String(repeating: "y", count: 500)
        let error = try #require(throws: PostgresError.self) {
            try connection.copyIn("COPY t FROM STDIN") { writer in
                for index in 0..<200_000 {
                    if index == 1_000 {
                        try killer.execute("SELECT pg_terminate_backend($1)", [String(connection.backendPID)])
                    }
                    try writer.writeRow([String(index), filler])
                }
            }
        }
        #expect(error.code == .adminShutdown || error.code == .connectionFailure)
        #expect(try killer.execute("SELECT count(*) FROM t").rows == [["0"]])
    }
}
