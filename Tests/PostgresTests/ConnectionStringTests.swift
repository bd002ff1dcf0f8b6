import Postgres
import Testing

@Suite struct ConnectionStringTests {
    @Test(arguments: [
        ("postgresql://app:s3cret@db.example/mls", "postgresql://app:***@db.example/mls"),
        ("postgres://app:s3cret@db:5432/mls?sslmode=require", "postgres://app:***@db:5432/mls?sslmode=require"),
        ("postgresql://app@db/mls", "postgresql://app@db/mls"),
        ("postgresql://db/mls?user=app&password=s3cret", "postgresql://db/mls?user=app&password=***"),
        ("host=db user=app password=s3cret dbname=mls", "host=db user=app password=*** dbname=mls"),
        ("host=db password = 's3 cr\\'et' dbname=mls", "host=db password = *** dbname=mls"),
        ("host=/tmp/sock dbname=postgres user=postgres", "host=/tmp/sock dbname=postgres user=postgres"),
        ("", ""),
    ])
    func redacts(input: String, expected: String) {
        #expect(ConnectionString.redacted(input) == expected)
    }
}
