import HTTPClient
import Testing

/// Which redirects the client follows: a pure decision on the two origins and whether credentials ride along.
@Suite struct RedirectDecisionTests {
    static let credentials = "the request carries credentials, which are sent to their own origin only"

    @Test(arguments: [
        // (from, to, credentialed, refusal or nil to follow)
        ("http://127.0.0.1:8080/a", "http://127.0.0.1:8080/b?x=1", true, nil),
        ("http://Example.COM/a", "HTTP://example.com:80/b", true, nil),
        ("https://example.com/a", "https://example.com:443/b", true, nil),
        ("http://127.0.0.1:8080/a", "http://localhost:8080/a", true,
         "refused a redirect to http://localhost:8080, another origin than http://127.0.0.1:8080: \(credentials)"),
        ("http://127.0.0.1:8080/a", "http://127.0.0.1:8081/a", true,
         "refused a redirect to http://127.0.0.1:8081, another origin than http://127.0.0.1:8080: \(credentials)"),
        ("http://example.com/a", "https://example.com/a", true,
         "refused a redirect to https://example.com, another origin than http://example.com: \(credentials)"),
        ("http://[::1]:8080/a", "http://[::1]:8081/a", true,
         "refused a redirect to http://[::1]:8081, another origin than http://[::1]:8080: \(credentials)"),
        ("http://127.0.0.1:8080/a", "http://localhost:8080/a", false, nil),
        ("http://example.com/a", "https://cdn.example.net/a", false, nil),
        ("https://example.com/a", "http://example.com/a", false,
         "refused a redirect from https to http://example.com: the request would leave TLS"),
        ("https://example.com/a", "http://example.com/a", true,
         "refused a redirect from https to http://example.com: the request would leave TLS"),
        ("https://example.com:8443/a", "http://cdn.example.net:8080/a", false,
         "refused a redirect from https to http://cdn.example.net:8080: the request would leave TLS"),
    ] as [(String, String, Bool, String?)])
    func decide(from: String, to: String, credentialed: Bool, refusal: String?) throws {
        let decision = RedirectDecision.decide(from: try #require(HTTPOrigin(url: from)),
                                               to: try #require(HTTPOrigin(url: to)), credentialed: credentialed)
        #expect(decision == (refusal.map { .refuse($0) } ?? .follow))
    }

    @Test(arguments: ["ftp://example.com/a", "file:///etc/passwd", "http:///no-host", "not a url"])
    func onlyHTTPURLsWithAHostHaveAnOrigin(url: String) {
        #expect(HTTPOrigin(url: url) == nil)
    }
}
