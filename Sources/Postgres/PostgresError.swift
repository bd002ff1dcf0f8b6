/// An error reported by PostgreSQL or libpq: typed SQLSTATE, primary message, detail and hint.
///
/// Messages never carry a connection password (see `ConnectionString.scrub`).
public struct PostgresError: Error, CustomStringConvertible, Sendable, Equatable {
    public let code: SQLState
    public let message: String
    public let detail: String?
    public let hint: String?

    public init(code: SQLState, message: String, detail: String? = nil, hint: String? = nil) {
        self.code = code
        self.message = message
        self.detail = detail
        self.hint = hint
    }

    /// The primary message, then `DETAIL: ...` and `HINT: ...` lines when present.
    public var description: String {
        var text = message
        if let detail { text += "\nDETAIL: \(detail)" }
        if let hint { text += "\nHINT: \(hint)" }
        return text
    }
}
