import Foundation

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

    /// Cancels the statement running on this connection, from any thread: the blocked call throws a
    /// `queryCanceled` error. With `refusingLater`, every later call throws one at once too (the connection's work
    /// is over; a run's data connection), else later calls run as usual (a connection that must still record the
    /// outcome).
    ///
    /// A cancel request travels on a connection of its own and may reach the server before the statement it is
    /// meant for (a cancel that finds the backend idle is dropped): it is sent again every 100 ms for as long as
    /// the calls in flight when it was asked for still run, up to 10 s.
    public func cancel(refusingLater: Bool = true) {
        let (inFlight, generation) = state.withLock { state -> (Bool, Int) in
            if refusingLater { state.stopped = true }
            return (state.calls > 0, state.generation)
        }
        guard inFlight, let canceller = pq.canceller else { return }
        canceller.cancel()
        let state = self.state
        DispatchQueue.global().async {
            for _ in 0..<100 {
                usleep(100_000)
                guard state.withLock({ $0.calls > 0 && $0.generation == generation }) else { return }
                canceller.cancel()
            }
        }
    }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { state.withLock { $0.stopped } }

    /// Runs one libpq call once the queued COPYs have run (throwing the first one's failure), refused once the
    /// connection was cancelled, counted while it runs (see `cancel`).
    private func call<T>(_ body: () throws -> T) throws -> T {
        try copies.settle()
        return try counted(body)
    }

    /// Runs one libpq call, refused once the connection was cancelled, counted while it runs (see `cancel`).
    private func counted<T>(_ body: () throws -> T) throws -> T {
        try state.withLock { state in
            if state.stopped { throw PostgresError(code: .queryCanceled, message: "the statement was cancelled") }
            state.calls += 1
        }
        defer {
            state.withLock { state in
                state.calls -= 1
                if state.calls == 0 { state.generation += 1 }
            }
        }
        return try body()
    }

    private final class CallState: @unchecked Sendable {
        private let lock = NSLock()
        /// Refusing further calls; calls in flight; bumped when none is left (a cancel stops repeating then).
        private var value = (stopped: false, calls: 0, generation: 0)

        func withLock<T>(_ body: (inout (stopped: Bool, calls: Int, generation: Int)) throws -> T) rethrows -> T {
            lock.lock()
            defer { lock.unlock() }
            return try body(&value)
        }
    }

    private let state = CallState()

    /// COPYs handed to a worker (`enqueueCopy`); every other call waits for them first.
    private let copies = CopyQueue(byteLimit: 1 << 20)

    /// Runs one statement with text parameters `$1, $2, ...` (nil is NULL) and returns its rows.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws -> QueryResult {
        try call { try pq.exec(sql, parameters) }
    }

    /// Runs several `;`-separated statements without parameters (migrations, DDL).
    public func executeScript(_ sql: String) throws {
        try call { try pq.execScript(sql) }
    }

    /// Runs `COPY ... FROM STDIN` (text format), letting `produce` write the rows; returns the rows copied.
    ///
    /// When `produce` throws, the COPY is failed on the server and the error is rethrown. A COPY that fails
    /// on the server or loses its connection throws; it never waits forever.
    @discardableResult
    public func copyIn(_ sql: String, _ produce: (CopyWriter) throws -> Void) throws -> Int {
        try call { try copyIn(sql, produce, pq) }
    }

    private func copyIn(_ sql: String, _ produce: (CopyWriter) throws -> Void, _ pq: LibPQConnection) throws -> Int {
        try runCopy(sql) {
            let writer = CopyWriter(pq)
            try produce(writer)
            try writer.flush()
        }
    }

    /// One `COPY ... FROM STDIN` with the data `send` puts; when `send` throws, the COPY is failed on the server and
    /// the error rethrown. Returns the rows the server copied.
    private func runCopy(_ sql: String, _ send: () throws -> Void) throws -> Int {
        try pq.beginCopy(sql)
        do {
            try send()
        } catch {
            _ = try? pq.endCopy(failure: "COPY aborted by the client")
            throw error
        }
        return try pq.endCopy()
    }

    /// Runs `COPY ... FROM STDIN (FORMAT binary)` with `rows`; returns the rows copied. A COPY that fails on the
    /// server or loses its connection throws; it never waits forever.
    @discardableResult
    package func copyIn(_ sql: String, rows: BinaryCopyRows) throws -> Int {
        try call {
            try runCopy(sql) {
                try pq.putCopyData(rows.bytes)
                try pq.putCopyData(BinaryCopyRows.trailer)
            }
        }
    }

    /// Runs `COPY ... FROM STDIN` with the data `produce` passes to its argument in pieces, in order (text rows, or
    /// a binary payload: header, rows, trailer); returns the rows copied. When `produce` throws, the COPY is failed
    /// on the server and the error rethrown.
    @discardableResult
    package func copyIn(_ sql: String, pieces produce: (([UInt8]) throws -> Void) throws -> Void) throws -> Int {
        try call { try runCopy(sql) { try produce { try pq.putCopyData($0) } } }
    }

    /// Queues `COPY ... FROM STDIN` with its whole `payload` (text rows, or binary rows with header and trailer)
    /// to run on a worker thread, and returns once it is queued: the server reads it while the caller encodes the
    /// next one. COPYs run in the order queued; any other call on the connection waits for them first. The first
    /// failure is thrown by the next call (this one included, instead of queuing). A caller that must know they
    /// ran calls `settleCopies`.
    package func enqueueCopy(_ sql: String, payload: consuming [UInt8]) throws {
        if isCancelled { throw PostgresError(code: .queryCanceled, message: "the statement was cancelled") }
        try copies.enqueue(payload) { [self] payload in
            // On the worker: the caller's own calls wait (`call`) until the queue has run.
            _ = try counted { try runCopy(sql) { try pq.putCopyData(payload) } }
        }
    }

    /// Queues a text `COPY ... FROM STDIN` whose rows `produce` writes now, into memory (see
    /// `enqueueCopy(_:payload:)`); returns the rows written. Nothing is queued when `produce` throws.
    @discardableResult
    package func enqueueCopy(_ sql: String, _ produce: (CopyWriter) throws -> Void) throws -> Int {
        // A fresh buffer: text COPYs here are small (keys, rejects); the spare one is kept for the batches.
        let writer = CopyWriter()
        try produce(writer)
        let rows = writer.rows
        try enqueueCopy(sql, payload: writer.takeBuffer())
        return rows
    }

    /// Queues one statement behind the queued COPYs, to run on their worker thread while the caller goes on; `done`
    /// (if any) gets its rows there. Ordered, refused and failed as `enqueueCopy(_:payload:)`: a failure is thrown
    /// by the next call, and the COPYs queued after it are dropped. A queued statement takes no room of the
    /// queue's bytes.
    package func enqueue(_ sql: String, _ parameters: [String?] = [],
                         done: (@Sendable (QueryResult) -> Void)? = nil) throws {
        if isCancelled { throw PostgresError(code: .queryCanceled, message: "the statement was cancelled") }
        try copies.enqueue([]) { [self] _ in
            let result = try counted { try pq.exec(sql, parameters) }
            done?(result)
        }
    }

    /// Lets the queued COPYs hold up to `bytes` (a limit only ever raised): a caller that queues long statements
    /// (`enqueue(_:_:done:)`) goes on encoding while they run.
    package func raiseCopyQueueLimit(to bytes: Int) {
        copies.raiseLimit(to: bytes)
    }

    /// Waits until the queued COPYs have run; throws the first one's failure.
    package func settleCopies() throws {
        try copies.settle()
    }

    /// An empty buffer for a payload of about `bytes`: one a queued COPY has sent when its size suits, else a new
    /// one with that capacity.
    package func copyBuffer(for bytes: Int) -> [UInt8] {
        if let spare = copies.spareBuffer(for: bytes) { return spare }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(bytes)
        return buffer
    }

    /// Runs `COPY ... TO STDOUT` (text format) and hands `consume` each row's bytes, without the newline, in a
    /// buffer reused for the next row; returns the rows copied. An error thrown by `consume` is rethrown once
    /// the server has finished the COPY (the rest of its rows are read and dropped).
    @discardableResult
    public func copyOut(_ sql: String, _ consume: ([UInt8]) throws -> Void) throws -> Int {
        try call { try pq.copyOut(sql, consume) }
    }

    /// Runs `COPY ... TO STDOUT (FORMAT binary)` and hands `consume` each row (see `BinaryCopyReader`); returns
    /// the rows copied. An error thrown by `consume` is rethrown once the server has finished the COPY.
    @discardableResult
    package func copyOutBinary(_ sql: String, _ consume: (BinaryCopyRow) throws -> Void) throws -> Int {
        var reader = BinaryCopyReader()
        return try call {
            let copied = try pq.copyOut(sql, text: false) { message in try reader.read(message, consume) }
            guard reader.ended else {
                throw PostgresError(code: .other("08P01"), message: "unreadable binary COPY data: no trailer")
            }
            return copied
        }
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

    /// Where the connection went, for messages: `HOST:PORT/DATABASE` (`db-2.internal:5432/mlsfeed`,
    /// `/run/postgresql:5432/mlsfeed` for a unix socket, `[::1]:5432/mlsfeed`). Holds no password.
    package var address: String {
        let (host, port, database) = pq.endpoint
        return Self.address(host: host, port: port, database: database)
    }

    /// `HOST:PORT/DATABASE`, an IPv6 address in brackets.
    package static func address(host: String, port: String, database: String) -> String {
        let shown = host.contains(":") && !host.hasPrefix("/") ? "[\(host)]" : host
        return "\(shown):\(port)/\(database)"
    }
}
