import Foundation
import Postgres
import PostgresTestSupport
import Testing

@Suite struct ConnectionTests {
    @Test func executesWithTextParametersAndReadsRows() throws {
        let connection = try Connection(TestDatabase.fresh())
        let result = try connection.execute("SELECT $1::int + 1 AS n, $2::text AS t, NULL::text AS z", ["41", "a\tb"])
        #expect(result.columns == ["n", "t", "z"])
        #expect(result.rows == [["42", "a\tb", nil]])
        #expect(result.value(0, "n") == "42")
        #expect(result.value(0, "missing") == nil)
    }

    @Test func reportsAffectedRows() throws {
        let connection = try Connection(TestDatabase.fresh())
        try connection.executeScript("CREATE TABLE t (id int PRIMARY KEY, v text); INSERT INTO t VALUES (1, 'a');")
        let inserted = try connection.execute("INSERT INTO t SELECT g, 'x' FROM generate_series(2, 5) g")
        #expect(inserted.affectedRows == 4)
        let updated = try connection.execute("UPDATE t SET v = $1 WHERE id > $2", ["y", "3"])
        #expect(updated.affectedRows == 2)
    }

    @Test(arguments: [
        ("INSERT INTO t VALUES (1), (1)", SQLState.uniqueViolation,
         "duplicate key value violates unique constraint \"t_pkey\""),
        ("SELECT * FROM nowhere", .undefinedTable, "relation \"nowhere\" does not exist"),
        ("SELECT 'abc'::int", .invalidTextRepresentation, "invalid input syntax for type integer: \"abc\""),
        ("SELECT 40000::smallint", .numericValueOutOfRange, "smallint out of range"),
        ("INSERT INTO t VALUES (NULL)", .notNullViolation,
         "null value in column \"id\" of relation \"t\" violates not-null constraint"),
    ])
    func mapsServerErrors(sql: String, code: SQLState, message: String) throws {
        let connection = try Connection(TestDatabase.fresh())
        try connection.execute("CREATE TABLE t (id int PRIMARY KEY)")
        let error = try #require(throws: PostgresError.self) { try connection.execute(sql) }
        #expect(error.code == code)
        #expect(error.message == message)
    }

    @Test func errorCarriesDetail() throws {
        let connection = try Connection(TestDatabase.fresh())
        try connection.executeScript("CREATE TABLE t (id int PRIMARY KEY); INSERT INTO t VALUES (7);")
        let error = try #require(throws: PostgresError.self) { try connection.execute("INSERT INTO t VALUES (7)") }
        #expect(error.detail == "Key (id)=(7) already exists.")
        #expect(error.description == "duplicate key value violates unique constraint \"t_pkey\"\n"
            + "DETAIL: Key (id)=(7) already exists.")
    }

    @Test func transactionCommitsAndRollsBack() throws {
        let connection = try Connection(TestDatabase.fresh())
        try connection.execute("CREATE TABLE t (id int)")
        let value = try connection.transaction { () throws -> Int in
            try connection.execute("INSERT INTO t VALUES (1)")
            return 5
        }
        #expect(value == 5)
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try connection.transaction {
                try connection.execute("INSERT INTO t VALUES (2)")
                throw Boom()
            }
        }
        #expect(try connection.execute("SELECT id FROM t").rows == [["1"]])
    }

    @Test func connectionFailureNamesNoPassword() throws {
        let error = try #require(throws: PostgresError.self) {
            try Connection("host=/nonexistent/socket port=5432 user=app password=hunter2 connect_timeout=2")
        }
        #expect(error.code == .connectionFailure)
        #expect(!error.description.contains("hunter2"))
        #expect(error.message.hasPrefix("connection to server on socket \"/nonexistent/socket/.s.PGSQL.5432\" failed"))
    }

    /// A role with `password` on the test server, and the key=value conninfo that logs in as it to `database`.
    static func role(password: String, database: String) throws -> (name: String, conninfo: (String) -> String) {
        let admin = try Connection(try TestDatabase.server())
        let name = "r_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        try admin.execute(try admin.execute("SELECT format('CREATE ROLE %I LOGIN PASSWORD %L', $1::text, $2::text)",
                                            [String(name), password]).rows[0][0]!)
        let place = try admin.execute("""
            SELECT coalesce(host(inet_server_addr()), split_part(current_setting('unix_socket_directories'), ',', 1)),
                   current_setting('port')
            """).rows[0]
        return (String(name), { "host=\(place[0]!) port=\(place[1]!) dbname=\(database) user=\(name) password=\($0)" })
    }

    @Test func aWrongPasswordIsARefusedLoginOfItsRole() throws {
        let database = try Connection(TestDatabase.fresh()).execute("SELECT current_database()").rows[0][0]!
        let role = try Self.role(password: "right-pass", database: database)
        let error = try #require(throws: PostgresError.self) { try Connection(role.conninfo("wr0ng-pass")) }
        #expect(error.code == .invalidPassword)
        #expect(error.role == role.name)
        #expect(error.message.hasSuffix("failed: FATAL:  password authentication failed for user \"\(role.name)\""))
        #expect(!error.description.contains("wr0ng-pass"))
        #expect(try Connection(role.conninfo("right-pass")).execute("SELECT current_user").rows == [[role.name]])
    }

    @Test func aMissingConnectPrivilegeNamesIt() throws {
        let database = try Connection(TestDatabase.fresh()).execute("SELECT current_database()").rows[0][0]!
        let role = try Self.role(password: "right-pass", database: database)
        try Connection(try TestDatabase.server()).execute("REVOKE CONNECT ON DATABASE \(database) FROM PUBLIC")
        let error = try #require(throws: PostgresError.self) { try Connection(role.conninfo("right-pass")) }
        #expect(error.code == .insufficientPrivilege)
        #expect(error.role == role.name)
        #expect(error.privilege == "CONNECT on database \(database)")
    }

    @Test func aStatementRefusedForAPrivilegeNamesTheRoleAndWhatItNeeded() throws {
        let conninfo = try TestDatabase.fresh()
        let database = try Connection(conninfo).execute("SELECT current_database()").rows[0][0]!
        try Connection(conninfo).executeScript("CREATE TABLE runs (id int); INSERT INTO runs VALUES (1);")
        let role = try Self.role(password: "right-pass", database: database)
        try Connection(conninfo).execute("GRANT SELECT ON runs TO \(role.name)")
        let connection = try Connection(role.conninfo("right-pass"))
        #expect(try connection.execute("SELECT id FROM runs").rows == [["1"]])
        let error = try #require(throws: PostgresError.self) {
            try connection.execute("UPDATE runs SET id = 2 WHERE id = $1", ["1"])
        }
        #expect(error.code == .insufficientPrivilege)
        #expect(error.message == "permission denied for table runs")
        #expect(error.role == role.name)
        #expect(error.privilege == "UPDATE on table runs")
    }

    @Test func malformedConninfoNeverEchoesThePassword() throws {
        let error = try #require(throws: PostgresError.self) { try Connection("password=hunter2 bogus") }
        #expect(!error.description.contains("hunter2"))
    }

    @Test func backendPIDMatchesServer() throws {
        let connection = try Connection(TestDatabase.fresh())
        #expect(try connection.execute("SELECT pg_backend_pid()").rows == [[String(connection.backendPID)]])
    }

    @Test func addressNamesTheServerPortAndDatabase() throws {
        let connection = try Connection(TestDatabase.fresh())
        let facts = try connection.execute("SELECT current_setting('port'), current_database()").rows[0]
        #expect(connection.address.hasSuffix(":\(facts[0]!)/\(facts[1]!)"), "\(connection.address)")
        #expect(!connection.address.hasPrefix(":"), "\(connection.address)")
    }

    @Test(arguments: [
        ("db-2.internal", "db-2.internal:5432/mlsfeed"),
        ("/run/postgresql", "/run/postgresql:5432/mlsfeed"),
        ("10.0.0.7", "10.0.0.7:5432/mlsfeed"),
        ("::1", "[::1]:5432/mlsfeed"),
    ])
    func addressBracketsAnIPv6Host(host: String, address: String) {
        #expect(Connection.address(host: host, port: "5432", database: "mlsfeed") == address)
    }

    @Test func scriptRunsSeveralStatements() throws {
        let connection = try Connection(TestDatabase.fresh())
        try connection.executeScript("CREATE TABLE a (x int); CREATE TABLE b (y int); INSERT INTO b VALUES (3);")
        #expect(try connection.execute("SELECT y FROM b").rows == [["3"]])
    }

    @Test func usableFromAnotherThread() async throws {
        let connection = try Connection(TestDatabase.fresh())
        let pid = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: try? connection.execute("SELECT 1").rows)
            }
        }
        #expect(pid == [["1"]])
    }

    @Test func queuedCopiesReachTheTableBeforeTheNextCall() throws {
        let connection = try Connection(TestDatabase.fresh())
        try connection.execute("CREATE TABLE t (id int, v text)")
        var rows = BinaryCopyRows()
        for id in 1...3 {
            rows.beginRow(fields: 2)
            rows.int32(Int32(id))
            rows.text("binary \(id)")
        }
        try connection.enqueueCopy("COPY t FROM STDIN (FORMAT binary)", payload: rows.takePayload())
        let written = try connection.enqueueCopy("COPY t FROM STDIN") { writer in
            try writer.writeRow(["4", "text\t4"])
            try writer.writeRow(["5", nil])
        }
        #expect(written == 2)
        #expect(try connection.execute("SELECT id, v FROM t ORDER BY id").rows == [
            ["1", "binary 1"], ["2", "binary 2"], ["3", "binary 3"], ["4", "text\t4"], ["5", nil],
        ])
    }

    @Test func aQueuedCopyThatFailsThrowsAtTheNextCallAndTheConnectionStaysUsable() throws {
        let connection = try Connection(TestDatabase.fresh())
        try connection.execute("CREATE TABLE t (id int)")
        try connection.enqueueCopy("COPY t FROM STDIN") { writer in
            try writer.writeRow(["1"])
            try writer.writeRow(["two"])
        }
        // The failure is thrown by the next call: the next COPY queued, when the first has already failed, or
        // else the statement after it (that COPY is then dropped, queued after the failure).
        let error = try #require(throws: PostgresError.self) {
            try connection.enqueueCopy("COPY t FROM STDIN") { writer in try writer.writeRow(["3"]) }
            try connection.execute("SELECT 1")
        }
        #expect(error.code == .invalidTextRepresentation)
        #expect(error.message == "invalid input syntax for type integer: \"two\"")
        #expect(try connection.execute("SELECT count(*) FROM t").rows == [["0"]])
    }

    @Test func aCancelledConnectionQueuesNoCopy() throws {
        let connection = try Connection(TestDatabase.fresh())
        try connection.execute("CREATE TABLE t (id int)")
        connection.cancel()
        let error = try #require(throws: PostgresError.self) {
            try connection.enqueueCopy("COPY t FROM STDIN") { writer in try writer.writeRow(["1"]) }
        }
        #expect(error.code == .queryCanceled)
    }
}
