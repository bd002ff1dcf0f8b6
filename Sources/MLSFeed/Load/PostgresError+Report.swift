import Postgres

extension PostgresError {
    /// The error as mlsfeed prints it after `error: `: `database: ` and the server's message (with its DETAIL and
    /// HINT), then a `hint:` line saying what to do when the cause is the configured role: the role that could
    /// not log in or lacks a privilege (and which).
    package var report: String {
        "database: \(description)" + (advice.map { "\nhint: \($0)" } ?? "")
    }

    /// What the operator should do, for a failed login or a missing privilege.
    private var advice: String? {
        let who = role.map { "the role \"\($0)\"" } ?? "the role"
        switch code {
        case .invalidPassword:
            return "\(who) could not log in: check its password (in --database, MLSFEED_DATABASE_URL, "
                + "PGPASSWORD or ~/.pgpass)"
        case .invalidAuthorization:
            return "\(who) may not log in to this server or database: check the role's LOGIN right and the "
                + "server's pg_hba.conf"
        case .insufficientPrivilege:
            return "\(who) lacks \(privilege ?? "a privilege the statement needs"): grant it, or run mlsfeed as the "
                + "role that owns its tables"
        default:
            return nil
        }
    }
}
