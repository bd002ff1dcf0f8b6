import Foundation
import MLSFeed
import Testing

extension FetchTests {
    /// Conditional GETs with the validators a previous fetch recorded, under the ledger key known before fetching.
    @Suite struct ConditionalFetchTests {
        let server: FetchServer
        let quick = FetchSettings(connectTimeout: 5, readTimeout: 5, attempts: 1)

        init() throws {
            server = try FetchServer.shared.get()
        }

        /// Fetches `input` twice, the second time with the first identity's validators; the second outcome.
        func twice(_ input: InputFile, settings: FetchSettings) throws -> (first: InputIdentity, second: FetchOutcome) {
            let source = try body(Fetcher.open(input, settings: settings))
            _ = try drain(source)
            let first = source.identity
            let conditional = Conditional(etag: first.etag, lastModified: first.lastModified)
            return (first, try Fetcher.open(input, settings: settings, conditional: conditional))
        }

        @Test func paramsAndAQueryKeyKeepOneLedgerKey() throws {
            var settings = quick
            settings.params = [("status", "A")]
            settings.auth = .apiKeyQuery(name: "apikey", value: "k3y-abcdef")
            let input = InputFile(location: server.url("auth/key/listings.xml"))
            let key = try Fetcher.ledgerLocation(of: input, settings: settings)
            #expect(key == server.url("auth/key/listings.xml?status=A&apikey=***"))
            let (first, second) = try twice(input, settings: settings)
            #expect(first.location == key)
            #expect(first.etag != nil)
            guard case .notModified(let identity) = second else {
                Issue.record("expected 304, got a body")
                return
            }
            #expect(identity == InputIdentity(location: key, etag: first.etag, lastModified: first.lastModified))
        }

        @Test func aServerWithOnlyLastModifiedAnswers304() throws {
            let input = InputFile(location: server.url("lastmod/listings.xml"))
            let (first, second) = try twice(input, settings: quick)
            #expect(first.etag == nil)
            let lastModified = try #require(first.lastModified)
            #expect(lastModified.hasSuffix(" GMT"))
            guard case .notModified(let identity) = second else {
                Issue.record("expected 304, got a body")
                return
            }
            #expect(identity == InputIdentity(location: input.location, lastModified: lastModified))

            // An older date gets the body.
            let stale = try Fetcher.open(input, settings: quick,
                                         conditional: Conditional(lastModified: "Thu, 01 Jan 1970 00:00:00 GMT"))
            #expect(try drainCount(stale) == (try server.bytes("listings.xml")).count)
        }

        @Test func pagedAndLocalInputsHaveTheirKeysToo() throws {
            var settings = quick
            settings.params = [("status", "A")]
            settings.paging = .init(mode: .page(param: "page"))
            let paged = InputFile(location: server.url("paged/\(FetchServer.key())"))
            let pages = try Fetcher.pages(paged, settings: settings)
            #expect(try Fetcher.ledgerLocation(of: paged, settings: settings) == pages.location)
            #expect(pages.location == paged.location + "?status=A")
            #expect(try Fetcher.ledgerLocation(of: InputFile(location: "/data/dump.xml"), settings: settings)
                == "/data/dump.xml")
        }
    }
}
