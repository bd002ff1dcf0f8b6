import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// PostgreSQL reads canonical timestamp text back to the microsecond, and the stored read (`StoredCopy`) gives back
/// exactly the text that was written.
@Suite(.ownThread) struct TimestampStorageTests {
    @Test(arguments: [
        (1_406_655_997, 0), (1_406_655_997, 263_000), (1_406_655_997, 263_457), (1_406_655_997, 1),
        (1_406_655_997, 999_999), (-1, 500_000), (0, 0), (4_102_444_799, 100_000),
    ])
    func postgresKeepsEveryMicrosecond(seconds: Int, micros: Int) throws {
        let text = Coercion.formatTimestamp(seconds, microseconds: micros)
        let row = try Connection(try TestDatabase.server()).execute("""
            SELECT (extract(epoch FROM $1::timestamptz) * 1000000)::bigint,
                   to_char($1::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')
            """, [text]).rows[0]
        let expectedMicros = Int64(seconds) * 1_000_000 + Int64(micros)
        #expect(row[0] == String(expectedMicros))
        let sixDigits = String(1_000_000 + micros).dropFirst()
        #expect(row[1] == "\(Coercion.formatTimestamp(seconds).dropLast()).\(sixDigits)")
        #expect(StoredCopy(epochMicroseconds: expectedMicros, place: 0).modificationTimestamp == text)
    }
}
