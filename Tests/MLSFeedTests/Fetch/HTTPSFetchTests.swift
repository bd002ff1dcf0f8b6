import Digest
import Foundation
import MLSFeed
import Testing

extension FetchTests {
    /// https through libcurl against `server.py --tls` with a certificate from a CA the test made.
    @Suite struct HTTPSFetchTests {
        let server: TLSFetchServer
        let quick = FetchSettings(connectTimeout: 5, readTimeout: 5, attempts: 3, backoff: 0.05, maxBackoff: 0.2)

        init() throws {
            server = try TLSFetchServer.shared.get()
        }

        @Test func caFileMakesTheServerTrusted() throws {
            var settings = quick
            settings.caFile = server.caFile
            let source = try open(server.url("files/listings.xml"), settings: settings)
            let expected = try FetchServer.shared.get().bytes("listings.xml")
            #expect(try drain(source).bytes == expected)
            #expect(source.identity.sha256 == SHA256.hex(expected))
        }

        /// Without the CA the certificate problem is named in libcurl's words, and it is not retried.
        @Test func untrustedCertificateIsAClearErrorAtOnce() throws {
            let url = server.url("files/listings.xml")
            let log = LogLines()
            var settings = quick
            settings.log = { log.append($0) }
            #expect(throws: FetchError("GET \(url) failed: TLS: the server certificate is not trusted "
                + "(SSL certificate problem: unable to get local issuer certificate)")) {
                _ = try open(url, settings: settings)
            }
            #expect(log.lines.isEmpty)
        }
    }
}
