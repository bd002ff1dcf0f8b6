import Digest
import Foundation
import MLSFeed
import Testing

extension FetchTests {
    /// Fetch over HTTP against `server.py` on 127.0.0.1 (started once per test process).
    @Suite struct HTTPFetchTests {
        let server: FetchServer
        /// Quick retries so tests stay short.
        let quick = FetchSettings(connectTimeout: 5, readTimeout: 5, attempts: 3, backoff: 0.05, maxBackoff: 0.2)

        init() throws {
            server = try FetchServer.shared.get()
        }

        @Test func servesAFileWithItsIdentity() throws {
            let url = server.url("files/listings.xml")
            let source = try open(url, settings: quick)
            #expect(source.location == url)
            let (bytes, _) = try drain(source)
            let expected = try server.bytes("listings.xml")
            #expect(bytes == expected)
            #expect(source.identity.sha256 == SHA256.hex(expected))
            #expect(source.identity.bytes == Int64(expected.count))
            #expect(source.identity.etag?.hasPrefix("\"") == true)
            #expect(source.lastModified?.hasSuffix(" GMT") == true)
            #expect(source.identity.lastModified == source.lastModified)
        }

        @Test func multiChunkBodyArrivesWhole() throws {
            let source = try open(server.url("files/\(FetchServer.bigName)"), settings: quick)
            let (bytes, chunks) = try drain(source)
            #expect(bytes == (try server.bytes(FetchServer.bigName)))
            #expect(chunks.count >= 3)
            #expect(chunks.allSatisfy { $0 <= Fetcher.chunkSize })
        }

        @Test func serverErrorThenSuccessIsRetried() throws {
            let key = FetchServer.key()
            let log = LogLines()
            var settings = quick
            settings.log = { log.append($0) }
            let url = server.url("flaky/\(key)/listings.xml")
            let (bytes, _) = try drain(try open(url, settings: settings))
            #expect(bytes == (try server.bytes("listings.xml")))
            #expect(try server.text("count/\(key)") == "2")
            #expect(log.lines.count == 1)
            #expect(log.lines.first?.hasPrefix("GET \(url): HTTP 500 Internal Server Error; retry 1 of 2 in ") == true)
        }

        @Test func persistentServerErrorGivesUpAfterTheAttempts() throws {
            let key = FetchServer.key()
            let url = server.url("fail/\(key)")
            #expect(throws: FetchError("GET \(url) failed after 3 attempts: HTTP 500 Internal Server Error")) {
                _ = try open(url, settings: quick)
            }
            #expect(try server.text("count/\(key)") == "3")
        }

        @Test func tooManyRequestsHonoursRetryAfter() throws {
            let key = FetchServer.key()
            // Retry-After may ask for up to max_backoff (see HTTPCancellationTests for the cap).
            var settings = quick
            settings.maxBackoff = 5
            let started = Date()
            let (bytes, _) = try drain(try open(server.url("busy/\(key)/listings.xml"), settings: settings))
            let waited = Date().timeIntervalSince(started)
            #expect(bytes == (try server.bytes("listings.xml")))
            #expect(try server.text("count/\(key)") == "2")
            // Retry-After: 1 beats the 0.05 s backoff.
            #expect(waited >= 1.0)
            #expect(waited < 10)
        }

        @Test func connectionRefusedIsRetriedThenReported() throws {
            // A port nobody listens on: bind one, note it, close it.
            let url = "http://127.0.0.1:\(try Self.freePort())/feed.xml"
            var settings = quick
            settings.attempts = 2
            #expect(throws: FetchError(
                "GET \(url) failed after 2 attempts: cannot connect to the host (connection refused)")) {
                _ = try open(url, settings: settings)
            }
        }

        /// A body that arrives in pieces, each within the read timeout, is read whole.
        @Test func drippedBodyArrivesWhole() throws {
            let started = Date()
            let source = try open(server.url("drip/\(FetchServer.bigName)?pieces=6&delay=0.3"), settings: quick)
            let (bytes, _) = try drain(source)
            #expect(bytes == (try server.bytes(FetchServer.bigName)))
            #expect(Date().timeIntervalSince(started) >= 1.5)
        }

        @Test func stalledBodyHitsTheReadTimeout() throws {
            var settings = quick
            settings.readTimeout = 0.5
            settings.attempts = 1
            let url = server.url("drip/listings.xml?pieces=2&delay=3")
            #expect(throws: FetchError("GET \(url) failed: no data for 0.5 s (read timeout) after 1708 bytes")) {
                _ = try open(url, settings: settings)
            }
        }

        @Test func silentServerHitsTheConnectTimeout() throws {
            var settings = quick
            settings.connectTimeout = 0.5
            settings.attempts = 1
            let url = server.url("hang?seconds=5")
            let started = Date()
            #expect(throws: FetchError("GET \(url) failed: no response within 0.5 s (connect timeout)")) {
                _ = try open(url, settings: settings)
            }
            #expect(Date().timeIntervalSince(started) < 4)
        }

        /// A body shorter than its Content-Length is never handed out; it is fetched again, then the run fails.
        @Test func bodyCutShortIsRetriedThenAnError() throws {
            let key = FetchServer.key()
            let url = server.url("short/\(key)/listings.xml")
            let size = try server.bytes("listings.xml").count
            #expect(throws: FetchError(
                "GET \(url) failed after 3 attempts: body cut short after \(size / 2) of \(size) bytes")) {
                _ = try open(url, settings: quick)
            }
            #expect(try server.text("count/\(key)") == "3")
        }

        @Test func basicAuthIsSentAndThePasswordNeverShown() throws {
            let url = server.url("auth/basic/listings.xml")
            var settings = quick
            settings.auth = .basic(user: "feeduser", password: "s3cret-pass")
            let (bytes, _) = try drain(try open(url, settings: settings))
            #expect(bytes == (try server.bytes("listings.xml")))

            settings.auth = .basic(user: "feeduser", password: "wr0ng-pass")
            let error = try #require(throws: FetchError.self) { _ = try open(url, settings: settings) }
            #expect(error == FetchError("GET \(url) failed: HTTP 401 Unauthorized"))
            #expect(!error.description.contains("wr0ng-pass"))
        }

        @Test func credentialsInTheURLAreUsedAndRedacted() throws {
            let url = server.url("auth/basic/listings.xml")
                .replacingOccurrences(of: "//", with: "//feeduser:s3cret-pass@")
            let source = try open(url, settings: quick)
            #expect(source.location == server.url("auth/basic/listings.xml"))
            _ = try drain(source)

            let wrong = url.replacingOccurrences(of: "s3cret-pass", with: "wr0ng-pass")
            #expect(throws: FetchError("GET \(server.url("auth/basic/listings.xml")) failed: HTTP 401 Unauthorized")) {
                _ = try open(wrong, settings: quick)
            }
        }

        @Test func bearerAndAPIKeysAreSent() throws {
            var settings = quick
            settings.auth = .bearer("tok-123456")
            _ = try drain(try open(server.url("auth/bearer/listings.xml"), settings: settings))
            settings.auth = .apiKeyHeader(name: "X-Api-Key", value: "k3y-abcdef")
            _ = try drain(try open(server.url("auth/key/listings.xml"), settings: settings))
            settings.auth = .apiKeyQuery(name: "apikey", value: "k3y-abcdef")
            let source = try open(server.url("auth/key/listings.xml"), settings: settings)
            #expect(source.location == server.url("auth/key/listings.xml?apikey=***"))
            _ = try drain(source)

            settings.auth = .apiKeyQuery(name: "apikey", value: "n0t-the-key")
            let error = try #require(throws: FetchError.self) {
                _ = try open(server.url("auth/key/listings.xml"), settings: settings)
            }
            #expect(error == FetchError("GET \(server.url("auth/key/listings.xml?apikey=***")) failed: "
                + "HTTP 401 Unauthorized"))
            #expect(!error.description.contains("n0t-the-key"))
        }

        @Test func queryParametersAreEncodedInOrder() throws {
            let key = FetchServer.key()
            var settings = quick
            settings.params = [("method", "detailedSearch"), ("status", "A,P"), ("q", "a b&c")]
            let source = try open(server.url("query/\(key)?fixed=1"), settings: settings)
            _ = try drain(source)
            #expect(try server.text("log/\(key)") == "fixed=1&method=detailedSearch&status=A%2CP&q=a%20b%26c\n")
        }

        @Test func matchingETagGivesNotModified() throws {
            let url = server.url("files/listings.xml")
            let source = try open(url, settings: quick)
            _ = try drain(source)
            let etag = try #require(source.identity.etag)
            let outcome = try Fetcher.open(InputFile(location: url), settings: quick,
                                           conditional: Conditional(etag: etag, lastModified: source.lastModified))
            guard case .notModified(let identity) = outcome else {
                Issue.record("expected 304, got a body")
                return
            }
            #expect(identity == InputIdentity(location: url, etag: etag, lastModified: source.lastModified))

            // A stale ETag gets the body.
            let fresh = try open(url, settings: quick, conditional: Conditional(etag: "\"old\""))
            #expect(try drain(fresh).bytes == (try server.bytes("listings.xml")))
        }

        @Test(arguments: ["encoded", "gzipped"])
        func gzipBodiesAreDecoded(route: String) throws {
            let source = try open(server.url("\(route)/\(FetchServer.bigName)"), settings: quick)
            #expect(try drain(source).bytes == (try server.bytes(FetchServer.bigName)))
        }

        @Test func notFoundIsNotRetried() throws {
            let url = server.url("files/missing.xml")
            #expect(throws: FetchError("GET \(url) failed: HTTP 404 Not Found")) {
                _ = try open(url, settings: quick)
            }
        }

        static func freePort() throws -> Int {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                    guard bind(fd, pointer, length) == 0 else { return -1 }
                    return getsockname(fd, pointer, &length)
                }
            }
            guard bound == 0 else { throw FetchServerError(message: "cannot bind a probe socket") }
            return Int(UInt16(bigEndian: address.sin_port))
        }
    }
}
