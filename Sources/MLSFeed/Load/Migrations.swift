import Postgres

/// The database schema as versioned SQL files (`Load/Migrations/NNNN_name.sql`), applied in order and recorded in
/// `schema_migrations`.
///
/// A migration, once shipped, never changes (`MigrationChecksumTests` pins each file): a schema change is a new file
/// with the next version.
package enum Migrations {
    /// Advisory lock key held while migrating (`mlsfeed`'s namespace, then "migrations").
    static let lockKey = (Int32(0x6d6c_7366), Int32(1))

    /// Applies every migration not yet recorded, each in its own transaction, under an advisory lock so that
    /// two processes migrating at once apply each version once. Returns the versions applied now. A hot standby
    /// is refused first (`ReadOnlyStandby`): its schema comes from its primary.
    @discardableResult
    package static func apply(_ connection: Connection) throws -> [Int] {
        try ReadOnlyStandby.refuse(connection)
        try connection.execute("SELECT pg_advisory_lock($1, $2)", [String(lockKey.0), String(lockKey.1)])
        defer {
            _ = try? connection.execute("SELECT pg_advisory_unlock($1, $2)", [String(lockKey.0), String(lockKey.1)])
        }
        // Created only when missing: a role that may write mlsfeed's tables but not create any (no CREATE on the
        // schema) runs against a current schema, and a refusal names what it really lacks.
        if try connection.execute("SELECT to_regclass('schema_migrations') IS NULL").rows.first?.first == "t" {
            try connection.execute("""
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version integer PRIMARY KEY,
                    name text NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """)
        }
        let done = Set(try connection.execute("SELECT version FROM schema_migrations").rows
            .compactMap { $0[0].flatMap { Int($0) } })
        var applied: [Int] = []
        for migration in all where !done.contains(migration.version) {
            try connection.transaction {
                try connection.executeScript(migration.sql)
                try connection.execute("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                                       [String(migration.version), migration.name])
            }
            applied.append(migration.version)
        }
        return applied
    }

    /// Checks, without changing anything, that every migration of this build is applied (for commands that only
    /// read): an absent `schema_migrations` is version 0; an older schema throws a `LoadError` naming
    /// `mlsfeed db migrate`, or, on a hot standby, migrating its primary and waiting for the standby to replay it.
    package static func requireCurrent(_ connection: Connection) throws {
        // Two statements: a statement naming an absent table fails when it is parsed, whatever its branches.
        let exists = try connection.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").rows
        var version = 0
        if exists.first?.first == "t" {
            let max = try connection.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").rows
            version = max.first?.first.flatMap { $0.flatMap { Int($0) } } ?? 0
        }
        guard version < latestVersion else { return }
        let behind = "the database schema is at version \(version), this mlsfeed needs \(latestVersion)"
        if try ReadOnlyStandby.isStandby(connection) {
            throw LoadError("\(behind); the database at \(connection.address) is a read-only hot standby: run "
                + "`mlsfeed db migrate` against its primary, then wait for the standby to replay it")
        }
        throw LoadError("\(behind); run `mlsfeed db migrate`")
    }

    /// The newest schema version this build knows.
    package static var latestVersion: Int { all.last!.version }

    /// Every migration, in order: the files `Load/Migrations/NNNN_name.sql`, compiled in by the `EmbedSQL` plugin.
    package static var all: [(version: Int, name: String, sql: String)] { EmbeddedSQL.migrations }

    /// How many (status, city, ZIP) groups one merge function of `search.detailed` reads: `search.sql` has a
    /// `search_internal.*_merge4_*` and a `*_merge16_*` of every family and sort (a search of up to 4 groups runs the
    /// 4; every group slot costs its scan's start, ~25 µs, read or not).
    package static let detailedMergeSizes = [4, 16]
}
