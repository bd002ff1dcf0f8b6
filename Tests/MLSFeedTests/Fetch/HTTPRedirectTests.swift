import Foundation
import HTTPClient
import Testing
@testable import MLSFeed

extension FetchTests {
    /// Redirects against `server.py`: credentials stay with their origin, https never leads to http, and the OAuth2
    /// token request follows none. `localhost` and `127.0.0.1` are two hosts of one server.
    @Suite struct HTTPRedirectTests {
        let server: FetchServer
        let quick = FetchSettings(connectTimeout: 5, readTimeout: 5, attempts: 1)

        init() throws {
            server = try FetchServer.shared.get()
        }

        /// Every kind of credential a source can send.
        static let credentials: [FetchSettings.Auth] = [
            .basic(user: "feeduser", password: "s3cret-pass"), .bearer("tok-123456"),
            .apiKeyHeader(name: "X-Api-Key", value: "k3y-abcdef"),
            .apiKeyQuery(name: "access_token", value: "k3y-abcdef"),
        ]

        /// `redirect/KEY` answering `status` with a `Location` of `target`.
        func redirect(_ key: String, to target: String, status: Int = 302) -> String {
            let encoded = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target
            return server.url("redirect/\(key)?to=\(encoded)&status=\(status)")
        }

        @Test(arguments: credentials)
        func aRequestWithCredentialsIsNotRedirectedToAnotherHost(auth: FetchSettings.Auth) throws {
            let key = FetchServer.key()
            let url = redirect(key, to: "http://localhost:\(server.port)/record/\(key)/listings.xml")
            var settings = quick
            settings.auth = auth
            let location = try Fetcher.ledgerLocation(of: InputFile(location: url), settings: settings)
            #expect(throws: FetchError("GET \(location) failed: refused a redirect to http://localhost:\(server.port), "
                + "another origin than http://127.0.0.1:\(server.port): the request carries credentials, which are "
                + "sent to their own origin only")) {
                _ = try open(url, settings: settings)
            }
            #expect(try server.text("count/\(key)") == "1")
            #expect(try server.text("log/\(key)") == "")
        }

        @Test(arguments: [301, 302, 303, 307, 308])
        func aRequestWithCredentialsFollowsARedirectWithinItsOrigin(status: Int) throws {
            let key = FetchServer.key()
            var settings = quick
            settings.auth = .apiKeyHeader(name: "X-Api-Key", value: "k3y-abcdef")
            let source = try open(redirect(key, to: server.url("record/\(key)/listings.xml"), status: status),
                                  settings: settings)
            #expect(try drain(source).bytes == (try server.bytes("listings.xml")))
            #expect(try server.text("log/\(key)") == "GET 127.0.0.1:\(server.port) /record/\(key)/listings.xml "
                + "authorization=- x-api-key=k3y-abcdef cookie=-\n")
        }

        @Test func aRequestWithoutCredentialsFollowsARedirectToAnotherHost() throws {
            let key = FetchServer.key()
            let source = try open(redirect(key, to: "http://localhost:\(server.port)/record/\(key)/listings.xml"),
                                  settings: quick)
            #expect(try drain(source).bytes == (try server.bytes("listings.xml")))
            #expect(try server.text("log/\(key)") == "GET localhost:\(server.port) /record/\(key)/listings.xml "
                + "authorization=- x-api-key=- cookie=-\n")
        }

        @Test func httpsIsNeverRedirectedToHTTP() throws {
            let tls = try TLSFetchServer.shared.get()
            let key = FetchServer.key()
            let target = server.url("record/\(key)/listings.xml")
            let encoded = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target
            let url = tls.url("redirect/\(key)?to=\(encoded)")
            var settings = quick
            settings.caFile = tls.caFile
            #expect(throws: FetchError("GET \(url) failed: refused a redirect from https to "
                + "http://127.0.0.1:\(server.port): the request would leave TLS")) {
                _ = try open(url, settings: settings)
            }
            #expect(try server.text("log/\(key)") == "")
        }

        @Test func theOAuth2TokenRequestFollowsNoRedirect() throws {
            let key = FetchServer.key()
            let url = redirect(key, to: server.url("record/\(key)/token"), status: 307)
            let grant = OAuth2Settings(tokenURL: url, clientID: "mls-client", clientSecret: "s3cret-client")
            let token = OAuth2Token(grant: grant, settings: quick, client: try HTTPClient())
            #expect(throws: FetchError("POST \(url) (OAuth2 token) failed: HTTP 307 Temporary Redirect")) {
                _ = try token.current(cancellation: Cancellation())
            }
            #expect(try server.text("count/\(key)") == "1")
            #expect(try server.text("log/\(key)") == "")
        }
    }
}
