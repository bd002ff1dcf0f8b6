import Testing
@testable import Postgres

/// The SQLSTATE of a refused connection, read from libpq's verbose message.
@Suite struct ConnectionErrorTextTests {
    static let socket = "connection to server on socket \"/run/pg/.s.PGSQL.5432\" failed: "

    @Test(arguments: [
        (socket + "FATAL:  28P01: password authentication failed for user \"app\"\nLOCATION:  auth_failed, "
            + "auth.c:334\n", "28P01", socket + "FATAL:  password authentication failed for user \"app\"\n"),
        (socket + "FATAL:  42501: permission denied for database \"mls\"\nDETAIL:  User does not have CONNECT "
            + "privilege.\nLOCATION:  CheckMyDatabase, postinit.c:363",
         "42501", socket + "FATAL:  permission denied for database \"mls\"\nDETAIL:  User does not have CONNECT "
            + "privilege."),
        ("connection to server at \"db: 1\" (10.0.0.1), port 5432 failed:  timeout: FATAL:  3D000: database \"x\" "
            + "does not exist", "3D000",
         "connection to server at \"db: 1\" (10.0.0.1), port 5432 failed:  timeout: FATAL:  database \"x\" does not "
            + "exist"),
    ] as [(String, String, String)])
    func aServerErrorGivesItsCode(text: String, code: String, plain: String) throws {
        let parsed = try #require(ConnectionErrorText.parse(text))
        #expect(parsed.code == code)
        #expect(parsed.text == plain)
    }

    @Test(arguments: [
        socket + "No such file or directory\n\tIs the server running locally and accepting connections on that "
            + "socket?",
        socket + "fe_sendauth: no password supplied",
        "could not connect within 10 s (connect timeout)",
    ])
    func aClientSideFailureHasNone(text: String) {
        #expect(ConnectionErrorText.parse(text) == nil)
    }
}
