import Postgres

/// A connection held without keeping it open: it closes when the code using it lets it go.
struct WeakConnection: Sendable {
    private(set) weak var connection: Connection?

    init(_ connection: Connection) {
        self.connection = connection
    }

    /// Whether the connection has been let go, and so closed.
    var isClosed: Bool { connection == nil }
}
