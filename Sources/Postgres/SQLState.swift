/// A PostgreSQL SQLSTATE error code, typed for the cases mlsfeed reacts to.
public enum SQLState: Equatable, Hashable, Sendable {
    case uniqueViolation
    case foreignKeyViolation
    case checkViolation
    case notNullViolation
    case undefinedTable
    case undefinedColumn
    case undefinedDatabase
    case duplicateDatabase
    case duplicateTable
    case syntaxError
    case queryCanceled
    case lockNotAvailable
    case adminShutdown
    case cannotConnectNow
    case connectionFailure
    case invalidTextRepresentation
    case invalidBinaryRepresentation
    case invalidDatetimeFormat
    case datetimeFieldOverflow
    case numericValueOutOfRange
    case stringDataRightTruncation
    case serializationFailure
    case deadlockDetected
    case inFailedTransaction
    case invalidPassword
    case invalidAuthorization
    case tooManyConnections
    case insufficientPrivilege
    case diskFull
    case raiseException
    case other(String)

    private static let table: [(String, SQLState)] = [
        ("23505", .uniqueViolation), ("23503", .foreignKeyViolation), ("23514", .checkViolation),
        ("23502", .notNullViolation), ("42P01", .undefinedTable), ("42703", .undefinedColumn),
        ("3D000", .undefinedDatabase), ("42P04", .duplicateDatabase), ("42P07", .duplicateTable),
        ("42601", .syntaxError), ("57014", .queryCanceled), ("55P03", .lockNotAvailable),
        ("57P01", .adminShutdown), ("57P03", .cannotConnectNow), ("08006", .connectionFailure),
        ("22P02", .invalidTextRepresentation), ("22P03", .invalidBinaryRepresentation),
        ("22007", .invalidDatetimeFormat),
        ("22008", .datetimeFieldOverflow), ("22003", .numericValueOutOfRange),
        ("22001", .stringDataRightTruncation), ("40001", .serializationFailure), ("40P01", .deadlockDetected),
        ("25P02", .inFailedTransaction), ("28P01", .invalidPassword), ("28000", .invalidAuthorization),
        ("53300", .tooManyConnections), ("42501", .insufficientPrivilege), ("53100", .diskFull),
        ("P0001", .raiseException),
    ]

    private static let byCode: [String: SQLState] = Dictionary(uniqueKeysWithValues: table)

    /// The typed state of a five-character SQLSTATE; every `08xxx` code is a connection failure.
    public init(code: String) {
        if let known = SQLState.byCode[code] {
            self = known
        } else if code.hasPrefix("08") {
            self = .connectionFailure
        } else {
            self = .other(code)
        }
    }

    /// The five-character SQLSTATE (the canonical one for a typed case).
    public var code: String {
        if case .other(let code) = self { return code }
        return SQLState.table.first { $0.1 == self }!.0
    }
}
