import Foundation
import Postgres
import PostgresTestSupport

/// A login role with a password on the test server (created by the server's superuser), and the conninfos that
/// connect as it: what an operator's `--database` names.
struct DatabaseRole {
    let name: String
    let password: String
    /// The server's socket directory (or address) and port.
    let host: String
    let port: String

    /// A new role `r_<random>` with `password`; `superuser` for a role that may migrate a fresh database.
    static func create(password: String, superuser: Bool = false) throws -> DatabaseRole {
        let admin = try Connection(try TestDatabase.server())
        let name = "r_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        // A role name cannot be a parameter; the name is made here, the password goes through format().
        let create = try admin.execute("SELECT format('CREATE ROLE %I LOGIN %s PASSWORD %L', $1::text, $2::text, "
                                       + "$3::text)", [String(name), superuser ? "SUPERUSER" : "", password])
        try admin.execute(create.rows[0][0]!)
        let place = try admin.execute("""
            SELECT coalesce(host(inet_server_addr()), split_part(current_setting('unix_socket_directories'), ',', 1)),
                   current_setting('port')
            """).rows[0]
        return DatabaseRole(name: String(name), password: password, host: place[0]!, port: place[1]!)
    }

    /// `postgresql://NAME:PASSWORD@/DATABASE?host=...&port=...` (with `password` instead of the role's, if given).
    func url(database: String, password: String? = nil) -> String {
        "postgresql://\(name):\(password ?? self.password)@/\(database)?host=\(host)&port=\(port)"
    }

    /// The same as a libpq keyword list.
    func keywords(database: String, password: String? = nil) -> String {
        "host=\(host) port=\(port) dbname=\(database) user=\(name) password=\(password ?? self.password)"
    }

    /// Runs `sql` as the server's superuser in `database` (grants, revokes).
    static func admin(_ database: String, _ sql: String) throws {
        try Connection(database).executeScript(sql)
    }
}
