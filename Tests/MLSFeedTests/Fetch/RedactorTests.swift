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
