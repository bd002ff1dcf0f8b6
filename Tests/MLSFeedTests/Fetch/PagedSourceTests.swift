import Foundation
import MLSFeed
import Testing

extension FetchTests {
    @Suite struct PagedSourceTests {
        let server: FetchServer

        init() throws {
            server = try FetchServer.shared.get()
        }

        /// How many `<listing>` records a page holds (what the runner learns by parsing it).
        static func records(_ bytes: [UInt8]) -> Int {
            String(decoding: bytes, as: UTF8.self).components(separatedBy: "<listing>").count - 1
        }

        static func settings(_ paging: FetchSettings.Paging) -> FetchSettings {
            FetchSettings(params: [("status", "A")], paging: paging, attempts: 2, backoff: 0.05)
        }

        @Test func pageNumbersUntilAnEmptyPage() throws {
            let key = FetchServer.key()
            let url = server.url("paged/\(key)")
            let pages = try Fetcher.pages(InputFile(location: url),
                                          settings: Self.settings(.init(mode: .page(param: "page"), sizeParam: "limit",
                                                                        size: 2)))
            #expect(pages.location == url + "?status=A")
            var counts: [Int] = []
            var all: [UInt8] = []
            while let page = try pages.nextPage() {
                let (bytes, _) = try drain(page)
                all += bytes
                counts.append(Self.records(bytes))
                pages.pageHadRecords(counts.last! > 0)
            }
            #expect(counts == [2, 2, 2, 0])
            #expect(pages.pagesFetched == 4)
            #expect(!pages.reachedMaxPages)
            #expect(try server.text("log/\(key)") == (1...4).map { "status=A&page=\($0)&limit=2\n" }.joined())
            let identity = pages.identity
            #expect(identity.bytes == Int64(all.count))
            #expect(identity.sha256?.count == 64)
        }

        @Test func offsetsAndMaxPages() throws {
            let key = FetchServer.key()
            let pages = try Fetcher.pages(InputFile(location: server.url("paged/\(key)")),
                                          settings: Self.settings(.init(mode: .offset(param: "offset"),
                                                                        sizeParam: "limit", size: 50, maxPages: 2)))
            var fetched = 0
            while let page = try pages.nextPage() {
                _ = try drain(page)
                fetched += 1
                pages.pageHadRecords(true)
            }
            #expect(fetched == 2)
            #expect(pages.reachedMaxPages)
            #expect(try server.text("log/\(key)") == "status=A&offset=0&limit=50\nstatus=A&offset=50&limit=50\n")
        }

        @Test func anEmptyBodyEndsThePaging() throws {
            let pages = try Fetcher.pages(InputFile(location: server.url("files/empty.xml")),
                                          settings: Self.settings(.init(mode: .page(param: "p"))))
            #expect(try pages.nextPage() == nil)
            #expect(pages.pagesFetched == 1)
        }

        @Test func openRefusesAPagedURL() throws {
            let url = server.url("paged/x")
            #expect(throws: FetchError("\(url): source.http.paging is set, so this input is read page by page "
                + "(Fetcher.pages)")) {
                let settings = FetchSettings(paging: .init(mode: .page(param: "page")))
                _ = try Fetcher.open(InputFile(location: url), settings: settings, conditional: nil)
            }
        }
    }
}
