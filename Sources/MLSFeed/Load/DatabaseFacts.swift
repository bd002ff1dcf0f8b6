import Postgres

/// What `mlsfeed doctor` reads from a database: the server, the schema version and the extensions mlsfeed needs.
package struct DatabaseFacts: Sendable, Equatable {
    /// The extensions the search indexes need (migration 2).
    package static let requiredExtensions = ["cube", "earthdistance"]

    /// `server_version` (`15.14 (Debian 15.14-0+deb12u1)`).
    package var serverVersion: String
    /// The database connected to.
    package var database: String
    /// The newest migration applied; 0 without `schema_migrations`.
    package var schemaVersion: Int
    /// The required extensions installed in the database, by name, with their versions.
    package var installedExtensions: [String: String]
    /// The required extensions the server could install (`pg_available_extensions`).
    package var availableExtensions: Set<String>
    /// Whether the server is a hot standby replaying its primary (`pg_is_in_recovery()`): it serves reads only.
    package var isStandby: Bool
    /// Where the connection went (`Connection.address`).
    package var address: String

    /// Reads the facts, changing nothing.
    package static func read(_ connection: Connection) throws -> DatabaseFacts {
        let server = try connection.execute("""
            SELECT current_setting('server_version'), current_database(), pg_is_in_recovery()
            """).rows
        let exists = try connection.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").rows
        var version = 0
        if exists.first?.first == "t" {
            let max = try connection.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").rows
            version = max.first?.first.flatMap { $0.flatMap { Int($0) } } ?? 0
        }
        let names = TextArray.literal(requiredExtensions)
        let installed = try connection.execute("""
            SELECT extname, extversion FROM pg_extension WHERE extname = ANY($1::text[])
            """, [names]).rows
        let available = try connection.execute("""
            SELECT name FROM pg_available_extensions WHERE name = ANY($1::text[])
            """, [names]).rows
        return DatabaseFacts(
            serverVersion: server.first?[0] ?? "", database: server.first?[1] ?? "", schemaVersion: version,
            installedExtensions: Dictionary(installed.compactMap { row in row[0].map { ($0, row[1] ?? "") } },
                                            uniquingKeysWith: { a, _ in a }),
            availableExtensions: Set(available.compactMap { $0[0] }), isStandby: server.first?[2] == "t",
            address: connection.address)
    }
}
