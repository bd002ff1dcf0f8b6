import Postgres

/// A write refused because the database is a hot standby: a server replaying its primary's WAL
/// (`pg_is_in_recovery()`), which serves reads (the search functions, the ledger) and takes no write, temporary
/// table or migration. What writes (a run, a plan, `db migrate`, `prune`, `rejects replay`) asks `refuse(_:)`
/// first, before any statement that could write, so a command pointed at a standby stops with this one message.
package struct ReadOnlyStandby: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the standby is (`Connection.address`: `HOST:PORT/DATABASE`).
    package var address: String

    package init(address: String) {
        self.address = address
    }

    /// What the user reads.
    package var message: String {
        "the database at \(address) is a read-only hot standby; point --database at the primary"
    }

    package var description: String { "error: \(message)" }

    /// Whether `connection`'s server is a standby in recovery.
    package static func isStandby(_ connection: Connection) throws -> Bool {
        try connection.execute("SELECT pg_is_in_recovery()").rows.first?.first == "t"
    }

    /// Throws `ReadOnlyStandby` when `connection`'s server is a standby; changes nothing.
    package static func refuse(_ connection: Connection) throws {
        if try isStandby(connection) { throw ReadOnlyStandby(address: connection.address) }
    }
}
