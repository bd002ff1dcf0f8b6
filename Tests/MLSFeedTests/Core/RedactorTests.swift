import MLSFeed
import Testing

extension FetchTests {
    @Suite struct RedactorTests {
        @Test(arguments: [
            ("https://user:pa55word@mls.example.com/feed.xml", "https://user:***@mls.example.com/feed.xml"),
            ("https://token@mls.example.com/x", "https://token@mls.example.com/x"),
            ("https://h/x?apikey=abc123&status=A", "https://h/x?apikey=***&status=A"),
            ("https://h/x?method=detailedSearch&api_key=k&access_token=t&Password=p&page=2",
             "https://h/x?method=detailedSearch&api_key=***&access_token=***&Password=***&page=2"),
            ("https://h/x?X-Amz-Signature=abcd#frag", "https://h/x?X-Amz-Signature=***#frag"),
            ("https://h/x?status=A%2CP&propertytype=RE", "https://h/x?status=A%2CP&propertytype=RE"),
            ("/data/dump.xml", "/data/dump.xml"),
        ])
        func urls(url: String, expected: String) {
            #expect(Redactor.redactURL(url) == expected)
        }

        /// Text scrubbed without knowing a secret: the one rule for errors, events, summaries and the ledger.
        @Test(arguments: [
            ("postgresql://app:s3cret@db.example/mls", "postgresql://app:***@db.example/mls"),
            ("postgres://app:s3cret@db:5432/mls?sslmode=require", "postgres://app:***@db:5432/mls?sslmode=require"),
            ("postgresql://app@db/mls", "postgresql://app@db/mls"),
            ("postgresql://db/mls?user=app&password=s3cret", "postgresql://db/mls?user=app&password=***"),
            ("host=db user=app password=s3cret dbname=mls", "host=db user=app password=*** dbname=mls"),
            ("host=db password = 's3 cr\\'et' dbname=mls", "host=db password = *** dbname=mls"),
            ("host=/tmp/sock dbname=postgres user=postgres", "host=/tmp/sock dbname=postgres user=postgres"),
            ("error: GET https://u:pw@h/f?apikey=k1 failed (HTTP 500); retrying https://h/f?token=t2.",
             "error: GET https://u:***@h/f?apikey=*** failed (HTTP 500); retrying https://h/f?token=***"),
            ("error: \"https://h/Property?$filter=City eq 'X'&access_token=t3\": HTTP 401",
             "error: \"https://h/Property?$filter=City eq 'X'&access_token=***\": HTTP 401"),
            ("cannot connect to \"postgresql://app:pw@db/x\" (timeout)",
             "cannot connect to \"postgresql://app:***@db/x\" (timeout)"),
            ("error: https://h/Property?$top=2&access_token=***: refused",
             "error: https://h/Property?$top=2&access_token=***: refused"),
            ("", ""),
        ])
        func scrub(text: String, expected: String) {
            #expect(Redactor.scrub(text) == expected)
        }

        @Test func knownSecretsAreMaskedEverywhere() {
            let redactor = Redactor(secrets: ["s3cret pass", "ab"])
            #expect(redactor.redact("login with s3cret pass failed") == "login with *** failed")
            // The percent-encoded form too; values shorter than 3 characters are not treated as secrets.
            #expect(redactor.redact("GET /x?p=s3cret%20pass&q=ab") == "GET /x?p=***&q=ab")
        }

        @Test func settingsKnowTheirSecrets() {
            let basic = FetchSettings(auth: .basic(user: "feeduser", password: "s3cret-pass"))
            // The password and the base64 of user:password (what an Authorization header would show).
            #expect(basic.redactor.redact("s3cret-pass ZmVlZHVzZXI6czNjcmV0LXBhc3M=") == "*** ***")
            let key = FetchSettings(auth: .apiKeyQuery(name: "key", value: "k3y-abcdef"))
            #expect(key.redactor.redactURL("http://h/feed?k=k3y-abcdef") == "http://h/feed?k=***")
        }
    }
}
