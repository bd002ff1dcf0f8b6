import Postgres
import Testing

@Suite struct SQLStateTests {
    @Test(arguments: [
        ("23505", SQLState.uniqueViolation), ("23503", .foreignKeyViolation), ("23514", .checkViolation),
        ("23502", .notNullViolation), ("42P01", .undefinedTable), ("57014", .queryCanceled),
        ("55P03", .lockNotAvailable), ("57P01", .adminShutdown), ("08006", .connectionFailure),
        ("08001", .connectionFailure), ("22P02", .invalidTextRepresentation), ("22P03", .invalidBinaryRepresentation),
        ("22003", .numericValueOutOfRange), ("28P01", .invalidPassword), ("28000", .invalidAuthorization),
        ("42501", .insufficientPrivilege), ("53100", .diskFull),
        ("XX000", .other("XX000")),
    ])
    func mapsCodes(code: String, state: SQLState) {
        #expect(SQLState(code: code) == state)
    }

    @Test func roundTripsCanonicalCodes() {
        #expect(SQLState.uniqueViolation.code == "23505")
        #expect(SQLState.other("XX000").code == "XX000")
    }
}
