import Foundation
@testable import MLSFeed
import Testing

extension FetchTests {
    /// A run's `Cancellation` stops a fetch within 0.5 s wherever it waits, and `Retry-After` obeys `max_backoff`.
    @Suite struct HTTPCancellationTests {
        let server: FetchServer
        let quick = FetchSettings(connectTimeout: 5, readTimeout: 60, attempts: 3, backoff: 0.05, maxBackoff: 0.2)

        init() throws {
            server = try FetchServer.shared.get()
        }

        /// The body stops after its first bytes (the server says when they are sent); the read timeout is a
        /// minute away, so only the cancellation can end the fetch.
        @Test func cancelDuringAStalledBody() throws {
            let key = FetchServer.key()
            let spool = TestSpool()
            defer { spool.remove() }
            var settings = quick
            settings.spoolDirectory = spool.path
            let cancellation = Cancellation()
            let url = server.url("stall/\(key)/\(FetchServer.bigName)?after=100000")
            let started = ContinuousClock.now
            let fetch = Background { [settings] in
                try drainCount(Fetcher.open(InputFile(location: url), settings: settings, conditional: nil,
                                            cancellation: cancellation))
            }
            try waitUntil { try server.text("count/\(key)") == "1" }
            let cancelled = ContinuousClock.now
            cancellation.cancel()
            let (result, ended) = try #require(fetch.wait(seconds: 5))
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(ended - cancelled < .milliseconds(500), "\(ended - cancelled)")
            #expect(ended - started < .seconds(2))
            #expect(spool.contents.isEmpty)
        }

        /// A 429 asking for an hour, `max_backoff` allowing one: the wait ends as soon as the run is cancelled.
        @Test func cancelDuringARetryWait() throws {
            let key = FetchServer.key()
            let waiting = DispatchSemaphore(value: 0)
            var settings = quick
            settings.maxBackoff = 3600
            settings.log = { _ in waiting.signal() }
            let cancellation = Cancellation()
            let url = server.url("busy/\(key)/listings.xml?retry_after=3600")
            let started = ContinuousClock.now
            let fetch = Background { [settings] in
                try drainCount(Fetcher.open(InputFile(location: url), settings: settings, conditional: nil,
                                            cancellation: cancellation))
            }
            #expect(waiting.wait(timeout: .now() + 10) == .success)
            let cancelled = ContinuousClock.now
            cancellation.cancel()
            let (result, ended) = try #require(fetch.wait(seconds: 5))
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(ended - cancelled < .milliseconds(500), "\(ended - cancelled)")
            #expect(ended - started < .seconds(2))
            #expect(try server.text("count/\(key)") == "1")
        }

        /// `Retry-After: 3600` with `max_backoff: 0.2`: the retry comes after 0.2 s, and the log says why.
        @Test func retryAfterIsCappedByMaxBackoff() throws {
            let key = FetchServer.key()
            let log = LogLines()
            var settings = quick
            settings.log = { log.append($0) }
            let url = server.url("busy/\(key)/listings.xml?retry_after=3600")
            let started = ContinuousClock.now
            #expect(try drain(try open(url, settings: settings)).bytes == (try server.bytes("listings.xml")))
            #expect(ContinuousClock.now - started < .seconds(2))
            #expect(log.lines == ["GET \(url): HTTP 429 Too Many Requests; retry 1 of 2 in 0.2 s "
                + "(Retry-After 3600.0 s capped by max_backoff)"])
        }

        /// Every wait between attempts stays within `max_backoff`, whatever the attempt and `Retry-After`.
        @Test(arguments: [nil, 0.0, 1.0, 3600.0])
        func everyWaitIsWithinMaxBackoff(retryAfter: Double?) {
            let settings = FetchSettings(backoff: 0.5, maxBackoff: 2)
            for attempt in 1...12 {
                let delay = Fetcher.retryDelay(after: attempt, retryAfter: retryAfter, settings: settings)
                #expect(delay >= 0 && delay <= 2, "attempt \(attempt): \(delay)")
                if let retryAfter { #expect(delay >= min(retryAfter, 2)) }
            }
        }

        @Test func alreadyCancelledFetchSendsNothing() throws {
            let key = FetchServer.key()
            let cancellation = Cancellation()
            cancellation.cancel()
            #expect(throws: CancellationError.self) {
                _ = try Fetcher.open(InputFile(location: server.url("fail/\(key)")), settings: quick,
                                     conditional: nil, cancellation: cancellation)
            }
            #expect(try server.text("count/\(key)") == "0")
        }

        @Test func cancelledPagingStopsAtTheNextPage() throws {
            let key = FetchServer.key()
            var settings = quick
            settings.paging = .init(mode: .page(param: "page"), sizeParam: "limit", size: 2)
            let cancellation = Cancellation()
            let pages = try Fetcher.pages(InputFile(location: server.url("paged/\(key)")), settings: settings,
                                          cancellation: cancellation)
            let first = try #require(try pages.nextPage())
            _ = try drain(first)
            pages.pageHadRecords(true)
            cancellation.cancel()
            #expect(throws: CancellationError.self) { _ = try pages.nextPage() }
            #expect(try server.text("count/\(key)") == "1")
        }
    }
}
