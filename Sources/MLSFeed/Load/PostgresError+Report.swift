import Postgres

extension PostgresError {
    /// The error as mlsfeed prints it after `error: `: `database: ` and the server's message (with its DETAIL and
    /// HINT), then a `hint:` line saying what to do when the cause is the configured role or the server's disk:
    /// the role that could not log in or lacks a privilege (and which), the tablespace that is full.
    package var report: String {
        "database: \(description)" + (advice.map { "\nhint: \($0)" } ?? "")
    }

    /// What the operator should do, for a failed login, a missing privilege or a full disk.
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
        case .diskFull:
            return "the database server has no space left\(tablespace.map { " in \($0)" } ?? ""): free some, "
                + "then run again (the run changed nothing)"
        default:
            return nil
        }
    }

    /// The tablespace of the file a disk-full message names (`could not extend file "base/16384/16385"`):
    /// `tablespace pg_default`, `tablespace pg_global`, or `the tablespace of OID 16390 (pg_tblspc/16390)`.
    private var tablespace: String? {
        guard let open = message.firstIndex(of: "\"") else { return nil }
        let path = message[message.index(after: open)...].prefix { $0 != "\"" }
        if path.hasPrefix("base/") { return "tablespace pg_default" }
        if path.hasPrefix("global/") { return "tablespace pg_global" }
        guard path.hasPrefix("pg_tblspc/") else { return nil }
        let oid = path.dropFirst("pg_tblspc/".count).prefix { $0.isNumber }
        return oid.isEmpty ? nil : "the tablespace of OID \(oid) (pg_tblspc/\(oid))"
    }
}
