#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
internal import CLibPQ

// The only file that imports CLibPQ: every pointer, every libpq call and every return-code check lives here.

/// Owner of one libpq connection handle (`PGconn`), finished in `deinit`.
///
/// Not thread-safe: one owner uses it at a time (see `Connection`).
final class LibPQConnection {
    private let handle: OpaquePointer
    /// Kept only to scrub its password from error messages.
    private let conninfo: String
    /// What `PQcancel` needs, taken once connected; usable from any thread.
    private(set) var canceller: LibPQCanceller?
    /// Whether the connection was established (before that, errors are a refused or failed connection).
    private var connected = false
    /// The statement sent last, to tell which privilege a refused one needed (`PrivilegeNeeded`).
    private var statement = ""

    /// Connects without blocking longer than `timeout` seconds, polling the socket so that `shouldStop` (checked
    /// every 100 ms) can abandon the attempt. `keepalive` sets TCP keepalives (idle, interval, count in seconds);
    /// settings the conninfo gives itself win over these defaults.
    init(_ conninfo: String, timeout: Double, keepalive: (idle: Int, interval: Int, count: Int),
         shouldStop: () -> Bool) throws {
        self.conninfo = conninfo
        // Defaults first: `dbname` holding a URL or key=value list is expanded (expand_dbname = 1) and later
        // keywords win, so the conninfo's own settings override them.
        let keywords = ["connect_timeout", "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count",
                        "dbname", "client_encoding", "fallback_application_name"]
        let values = [String(max(2, Int(timeout.rounded(.up)))), "1", String(keepalive.idle),
                      String(keepalive.interval), String(keepalive.count), conninfo, "UTF8", "mlsfeed"]
        let started: OpaquePointer? = withCStringArray(keywords) { keys in
            withCStringArray(values) { vals in PQconnectStartParams(keys, vals, 1) }
        }
        guard let started else {
            throw PostgresError(code: .connectionFailure, message: "out of memory allocating a libpq connection")
        }
        handle = started
        // From here `deinit` owns the handle, also when a check below throws.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        // A refused login's message then carries its SQLSTATE (`ConnectionErrorText`); reset once connected.
        PQsetErrorVerbosity(handle, PQERRORS_VERBOSE)
        try check(.connection(starting: true))
        let deadline = monotonicNow() + timeout
        var polling = PGRES_POLLING_WRITING
        while polling != PGRES_POLLING_OK {
            guard polling != PGRES_POLLING_FAILED else { throw connectionError() }
            if shouldStop() {
                throw PostgresError(code: .queryCanceled, message: "connecting was cancelled")
            }
            let remaining = deadline - monotonicNow()
            guard remaining > 0 else {
                throw PostgresError(code: .connectionFailure,
                                    message: "could not connect within \(Self.seconds(timeout)) (connect timeout)")
            }
            var descriptor = pollfd(fd: PQsocket(handle),
                                    events: Int16(polling == PGRES_POLLING_READING ? POLLIN : POLLOUT), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(100, max(1, remaining * 1000))))
            if ready < 0 && errno != EINTR { throw connectionError() }
            if ready > 0 { polling = PQconnectPoll(handle) }
        }
        try check(.connection(starting: false))
        PQsetErrorVerbosity(handle, PQERRORS_DEFAULT)
        connected = true
        canceller = PQgetCancel(handle).map(LibPQCanceller.init)
    }

    deinit {
        PQfinish(handle)
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    var backendPID: Int32 { PQbackendPID(handle) }

    /// The server's version as a number (`150018` for 15.18).
    var serverVersion: Int { Int(PQserverVersion(handle)) }

    /// The host connected to (a name, an address, or a unix socket's directory), its port and the database, as
    /// libpq used them (`PQhost`, `PQport`, `PQdb`).
    var endpoint: (host: String, port: String, database: String) {
        (PQhost(handle).map { String(cString: $0) } ?? "", PQport(handle).map { String(cString: $0) } ?? "",
         PQdb(handle).map { String(cString: $0) } ?? "")
    }

    /// One statement with text parameters (`PQexecParams`), its rows read in text form.
    func exec(_ sql: String, _ parameters: [String?]) throws -> QueryResult {
        statement = sql
        let raw: OpaquePointer? = withCStringArray(parameters, terminated: false) { values in
            PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        let result = try check(.result(raw, accepting: [PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY]))
        return result.map(read) ?? QueryResult(columns: [], rows: [], affectedRows: 0)
    }

    /// Several statements in one string (`PQexec`), results discarded.
    func execScript(_ sql: String) throws {
        statement = sql
        try check(.result(PQexec(handle, sql), accepting: [PGRES_COMMAND_OK, PGRES_TUPLES_OK,
                                                               PGRES_EMPTY_QUERY]))
    }

    /// Starts `COPY ... FROM STDIN`.
    func beginCopy(_ sql: String) throws {
        statement = sql
        try check(.result(PQexec(handle, sql), accepting: [PGRES_COPY_IN]))
    }

    /// Sends one chunk of COPY data (blocking).
    func putCopyData(_ bytes: [UInt8]) throws {
        let code = bytes.withUnsafeBytes { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return 1 }
            return PQputCopyData(handle, base.assumingMemoryBound(to: CChar.self), Int32(buffer.count))
        }
        try check(.code(code))
    }

    /// Ends the COPY (or fails it with `failure`), then reads results until none is left; returns rows copied.
    func endCopy(failure: String? = nil) throws -> Int {
        let code: Int32
        if let failure {
            code = PQputCopyEnd(handle, failure)
        } else {
            code = PQputCopyEnd(handle, nil)
        }
        var firstError: Error?
        do {
            try check(.code(code))
        } catch {
            firstError = error
        }
        var copied = 0
        var rounds = 0
        // Pitfall: the COPY is only over once PQgetResult returns NULL. A result still in COPY_IN state means
        // libpq did not take the end: retry the end a few times, and give up when the connection is gone.
        while let raw = PQgetResult(handle) {
            if PQresultStatus(raw) == PGRES_COPY_IN {
                PQclear(raw)
                rounds += 1
                if PQstatus(handle) == CONNECTION_BAD || rounds > 3 {
                    firstError = firstError ?? connectionError()
                    break
                }
                do {
                    try check(.code(PQputCopyEnd(handle, "COPY abandoned by the client")))
                } catch {
                    firstError = firstError ?? error
                    break
                }
                continue
            }
            take(copyResult: raw, copied: &copied, firstError: &firstError)
        }
        if let firstError { throw firstError }
        return copied
    }

    /// Runs `COPY ... TO STDOUT`, handing each data message's bytes (a text row without its newline when `text`)
    /// to `consume` in a reused buffer; then reads results until none is left. Returns the rows copied.
    func copyOut(_ sql: String, text: Bool = true, _ consume: ([UInt8]) throws -> Void) throws -> Int {
        statement = sql
        try check(.result(PQexec(handle, sql), accepting: [PGRES_COPY_OUT]))
        var line: [UInt8] = []
        var firstError: Error?
        while true {
            var buffer: UnsafeMutablePointer<CChar>?
            let length = PQgetCopyData(handle, &buffer, 0)
            guard length > 0, let buffer else {
                // -1: the COPY is over (its result follows); -2: an error, reported by the result or the connection.
                if length == -2 { firstError = connectionError() }
                break
            }
            defer { PQfreemem(buffer) }
            guard firstError == nil else { continue }
            line.removeAll(keepingCapacity: true)
            let count = Int(length) - (text && buffer[Int(length) - 1] == 0x0A ? 1 : 0)
            buffer.withMemoryRebound(to: UInt8.self, capacity: count) {
                line.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
            }
            do { try consume(line) } catch { firstError = error }
        }
        var copied = 0
        while let raw = PQgetResult(handle) {
            take(copyResult: raw, copied: &copied, firstError: &firstError)
        }
        if let firstError { throw firstError }
        return copied
    }

    /// Checks a result that ends a COPY: keeps its row count, or the first error.
    private func take(copyResult raw: OpaquePointer, copied: inout Int, firstError: inout Error?) {
        do {
            if let result = try check(.result(raw, accepting: [PGRES_COMMAND_OK])) {
                copied = read(result).affectedRows
            }
        } catch {
            firstError = firstError ?? error
        }
    }

    // MARK: - Checking

    /// What a libpq call returned, for the one checking helper.
    private enum Returned {
        /// The state of the connection after `PQconnectStartParams` (`starting`) or once connected.
        case connection(starting: Bool)
        /// A result (nil: out of memory or connection lost) with the statuses that mean success.
        case result(OpaquePointer?, accepting: [ExecStatusType])
        /// An integer return code where 1 means success (`PQputCopyData`, `PQputCopyEnd`).
        case code(Int32)
    }

    /// The one checking helper every libpq return passes through: throws a `PostgresError` on failure and
    /// hands back an owned result for `.result`. Error texts never contain the connection's password.
    @discardableResult
    private func check(_ returned: Returned) throws -> LibPQResult? {
        switch returned {
        case .connection(let starting):
            let status = PQstatus(handle)
            guard starting ? status != CONNECTION_BAD : status == CONNECTION_OK else { throw connectionError() }
            return nil
        case .code(let code):
            guard code == 1 else { throw connectionError() }
            return nil
        case .result(let raw, let accepting):
            guard let raw else { throw connectionError() }
            let result = LibPQResult(raw)
            guard accepting.contains(PQresultStatus(raw)) else { throw error(from: result) }
            return result
        }
    }

    private func error(from result: LibPQResult) -> PostgresError {
        func field(_ code: Character) -> String? {
            guard let text = PQresultErrorField(result.pointer, Int32(code.asciiValue!)) else { return nil }
            return ConnectionString.scrub(String(cString: text), conninfo: conninfo)
        }
        guard let state = field("C") else {
            let message = String(cString: PQresultErrorMessage(result.pointer))
            return connectionError(fallback: message)
        }
        let message = field("M") ?? "unknown error"
        let code = SQLState(code: state)
        guard code == .insufficientPrivilege else {
            return PostgresError(code: code, message: message, detail: field("D"), hint: field("H"))
        }
        return PostgresError(code: code, message: message, detail: field("D"), hint: field("H"), role: role,
                             privilege: PrivilegeNeeded.describe(message: message, statement: statement))
    }

    /// The codes a refused connection keeps (`ConnectionErrorText`): the role's login and rights, which an
    /// operator fixes in the configuration. Any other failure to connect stays a `connectionFailure`.
    private static let loginCodes: Set<SQLState> = [.invalidPassword, .invalidAuthorization, .insufficientPrivilege]

    /// The connection's last error message as a connection failure; while connecting, a refused login keeps its
    /// code (a server that asked for a password none was given for counts as `invalidPassword`).
    private func connectionError(fallback: String = "") -> PostgresError {
        var message = trimmed(String(cString: PQerrorMessage(handle)))
        if message.isEmpty { message = trimmed(fallback) }
        if message.isEmpty { message = "connection to the server lost" }
        var code = SQLState.connectionFailure
        if !connected {
            if let parsed = ConnectionErrorText.parse(message) {
                message = trimmed(parsed.text)
                let state = SQLState(code: parsed.code)
                if Self.loginCodes.contains(state) { code = state }
            } else if PQconnectionNeedsPassword(handle) == 1 {
                code = .invalidPassword
            }
        }
        let scrubbed = ConnectionString.scrub(message, conninfo: conninfo)
        guard code != .connectionFailure else { return PostgresError(code: code, message: scrubbed) }
        return PostgresError(code: code, message: scrubbed, role: role,
                             privilege: code == .insufficientPrivilege
                                ? PrivilegeNeeded.describe(message: scrubbed, statement: "") : nil)
    }

    /// The role the connection logs in as (libpq's `user`, the operating system's user name by default).
    private var role: String? { PQuser(handle).map { String(cString: $0) } }

    private func read(_ result: LibPQResult) -> QueryResult {
        let pointer = result.pointer
        let columnCount = Int(PQnfields(pointer))
        let rowCount = Int(PQntuples(pointer))
        let columns = (0..<columnCount).map { String(cString: PQfname(pointer, Int32($0))) }
        var rows: [[String?]] = []
        rows.reserveCapacity(rowCount)
        for row in 0..<rowCount {
            rows.append((0..<columnCount).map { column in
                PQgetisnull(pointer, Int32(row), Int32(column)) == 1
                    ? nil : String(cString: PQgetvalue(pointer, Int32(row), Int32(column)))
            })
        }
        let affected = Int(String(cString: PQcmdTuples(pointer))) ?? (rowCount > 0 ? rowCount : 0)
        return QueryResult(columns: columns, rows: rows, affectedRows: affected)
    }
}

/// Owner of one `PGcancel`, freed in `deinit`: asks the server to cancel a connection's running statement.
/// Safe from any thread while another thread is blocked in a call on that connection.
final class LibPQCanceller: @unchecked Sendable {
    private let handle: OpaquePointer

    init(_ handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        PQfreeCancel(handle)
    }

    /// Sends a cancel request (`PQcancel`); returns whether it was sent.
    @discardableResult
    func cancel() -> Bool {
        var message = [CChar](repeating: 0, count: 256)
        return PQcancel(handle, &message, Int32(message.count)) == 1
    }
}

/// Owner of one `PGresult`, cleared in `deinit`.
private final class LibPQResult {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        PQclear(pointer)
    }
}

/// Runs `body` with `strings` as C strings (nil stays NULL), NULL-terminated unless told otherwise.
private func withCStringArray<R>(_ strings: [String?], terminated: Bool = true,
                                 _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
    let copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.flatMap { strdup($0) } }
    defer { copies.forEach { free($0) } }
    var pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } }
    if terminated { pointers.append(nil) }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
}

private func trimmed(_ text: String) -> String {
    var scalars = Substring(text)
    while let last = scalars.last, last.isWhitespace { scalars = scalars.dropLast() }
    while let first = scalars.first, first.isWhitespace { scalars = scalars.dropFirst() }
    return String(scalars)
}

/// Seconds on a monotonic clock.
private func monotonicNow() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
