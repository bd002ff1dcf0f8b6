import Testing
@testable import Postgres

@Suite struct ConnectionStringTests {
    @Test(arguments: [
        ("postgresql://app:s3cret@db.example/mls", ["s3cret"]),
        ("postgresql://app@db/mls", []),
        ("postgresql://db/mls?user=app&password=s3cret", ["s3cret"]),
        ("host=db user=app password=s3cret dbname=mls", ["s3cret"]),
        ("host=db password = 's3 cr\\'et' dbname=mls", ["s3 cr'et"]),
        ("host=/tmp/sock dbname=postgres user=postgres", []),
        ("", []),
    ])
    func findsThePasswords(conninfo: String, expected: [String]) {
        #expect(ConnectionString.passwords(in: conninfo) == expected)
    }

    @Test func scrubsItsOwnMessages() {
        let conninfo = "host=db user=app password=s3cret dbname=mls"
        #expect(ConnectionString.scrub("password authentication failed (s3cret)", conninfo: conninfo)
            == "password authentication failed (***)")
    }
}
