/// One libpq connection to PostgreSQL: text-parameter queries, scripts, COPY and transactions.
///
/// Single owner: the connection is `@unchecked Sendable` so it can be handed to (or created on) a Dispatch
/// worker thread, but it must never be used by two threads at the same time. The libpq handle is freed when the
/// connection is released.
public final class Connection: @unchecked Sendable {
    private let pq: LibPQConnection

    /// Connects using a `postgresql://` URL or a `key=value` list; `""` uses libpq's environment defaults
    /// (`PGHOST`, `PGDATABASE`, ...). Throws a `connectionFailure` error (password never included), or
    /// `queryCanceled` when `shouldStop` (polled every 100 ms while connecting) turns true. `options` bounds the
    /// connect and, as session settings, every lock wait and statement.
    public init(_ conninfo: String, options: ConnectionOptions = ConnectionOptions(),
                shouldStop: () -> Bool = { false }) throws {
        pq = try LibPQConnection(conninfo, timeout: options.connectTimeout,
                                 keepalive: (options.keepaliveIdle, options.keepaliveInterval, options.keepaliveCount),
                                 shouldStop: shouldStop)
        try pq.execScript(options.sessionSettings)
        // PostgreSQL 14+ notices a client that is gone while a long statement runs, instead of finishing it and
        // holding its locks: a killed mlsfeed's merge is abandoned within seconds.
        if pq.serverVersion >= 140_000 { try pq.execScript("SET client_connection_check_interval = 2000") }
    }

    /// Asks the server to cancel the statement running on this connection; the blocked call then throws a
    /// `queryCanceled` error. Safe to call from any thread, at any time (it does nothing when no statement runs).
    @discardableResult
    public func cancel() -> Bool {
        pq.cancel()
    }

    /// Runs one statement with text parameters `$1, $2, ...` (nil is NULL) and returns its rows.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws -> QueryResult {
        try pq.exec(sql, parameters)
    }

    /// Runs several `;`-separated statements without parameters (migrations, DDL).
    public func executeScript(_ sql: String) throws {
        try pq.execScript(sql)
    }

    /// Runs `COPY ... FROM STDIN` (text format), letting `produce` write the rows; returns the rows copied.
    ///
    /// When `produce` throws, the COPY is failed on the server and the error is rethrown. A COPY that fails
    /// on the server or loses its connection throws; it never waits forever.
    @discardableResult
    public func copyIn(_ sql: String, _ produce: (CopyWriter) throws -> Void) throws -> Int {
        try pq.beginCopy(sql)
        let writer = CopyWriter(pq)
        do {
            try produce(writer)
            try writer.flush()
        } catch {
            _ = try? pq.endCopy(failure: "COPY aborted by the client")
            throw error
        }
        return try pq.endCopy()
    }

    /// Runs `COPY ... TO STDOUT` (text format) and hands `consume` each row's bytes, without the newline, in a
    /// buffer reused for the next row; returns the rows copied. An error thrown by `consume` is rethrown once
    /// the server has finished the COPY (the rest of its rows are read and dropped).
    @discardableResult
    public func copyOut(_ sql: String, _ consume: ([UInt8]) throws -> Void) throws -> Int {
        try pq.copyOut(sql, consume)
    }

    /// Runs `body` between `BEGIN` and `COMMIT`; `ROLLBACK` when it throws (the error is rethrown).
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        let value: T
        do {
            value = try body()
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
        try execute("COMMIT")
        return value
    }

    /// The process id of the server backend serving this connection.
    public var backendPID: Int32 { pq.backendPID }
}
