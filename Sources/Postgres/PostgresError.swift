/// An error reported by PostgreSQL or libpq: typed SQLSTATE, primary message, detail and hint.
///
/// Messages never carry a connection password (see `ConnectionString.scrub`).
public struct PostgresError: Error, CustomStringConvertible, Sendable, Equatable {
    public let code: SQLState
    public let message: String
    public let detail: String?
    public let hint: String?
    /// The role the connection logged in as (or tried to), for the errors about a role's rights: a failed login
    /// (`invalidPassword`, `invalidAuthorization`) and a missing privilege (`insufficientPrivilege`).
    public let role: String?
    /// For `insufficientPrivilege`: what the statement needed, as far as the server's message and the statement
    /// tell (`INSERT on table ingest_runs`, `CONNECT on database mls`, `ownership of table listings`); nil when
    /// they do not.
    public let privilege: String?

    public init(code: SQLState, message: String, detail: String? = nil, hint: String? = nil, role: String? = nil,
                privilege: String? = nil) {
        self.code = code
        self.message = message
        self.detail = detail
        self.hint = hint
        self.role = role
        self.privilege = privilege
    }

    /// The primary message, then `DETAIL: ...` and `HINT: ...` lines when present.
    public var description: String {
        var text = message
        if let detail { text += "\nDETAIL: \(detail)" }
        if let hint { text += "\nHINT: \(hint)" }
        return text
    }
}
