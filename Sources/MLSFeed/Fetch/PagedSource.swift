import Digest
import HTTPClient

/// A paged http(s) input: one request per page, fetched when the caller asks for the next page, until a page
/// holds no records (the caller says so), a page body is empty, or `max_pages`.
///
/// Drive it like this; every page is parsed as it comes and all pages count as one input:
/// ```swift
/// let pages = try Fetcher.pages(input, settings: settings)
/// while let page = try pages.nextPage() {
///     while let chunk = try page.next() { parser.feed(chunk) }
///     pages.pageHadRecords(recordsOfThisPage > 0)
/// }
/// let identity = pages.identity
/// ```
package final class PagedSource {
    /// The URL template with its fixed parameters, credentials redacted.
    package let location: String
    /// Pages requested so far.
    package private(set) var pagesFetched = 0
    /// True once `max_pages` pages were fetched without meeting an empty page.
    package var reachedMaxPages: Bool { !stopped && pagesFetched >= paging.maxPages }

    private let base: String
    private let settings: FetchSettings
    private let paging: FetchSettings.Paging
    private let client: HTTPClient
    private let spool: SpoolDirectory
    private let cancellation: Cancellation
    private var stopped = false
    private var current: (any ChunkSource)?
    private var pageDigests: [String] = []
    private var bytes: Int64 = 0
    private var firstETag: String?
    private var firstLastModified: String?

    init(base: String, location: String, settings: FetchSettings, paging: FetchSettings.Paging, client: HTTPClient,
         spool: SpoolDirectory, cancellation: Cancellation) {
        self.base = base
        self.location = location
        self.settings = settings
        self.paging = paging
        self.client = client
        self.spool = spool
        self.cancellation = cancellation
    }

    /// The next page's bytes, or nil when paging is over. The previous page should be read to its end first.
    /// Throws `CancellationError` once the run's cancellation (given to `Fetcher.pages`) is set.
    package func nextPage() throws -> (any ChunkSource)? {
        settle()
        guard !stopped, pagesFetched < paging.maxPages else { return nil }
        let plan = try HTTPRequestPlan(base: base, settings: settings,
                                       extraParams: paging.parameters(page: pagesFetched), conditional: nil)
        pagesFetched += 1
        let result = try Fetcher.get(plan, settings: settings, client: client, spool: spool,
                                     cancellation: cancellation)
        guard case .body(let raw) = result else {
            throw FetchError("GET \(plan.location): unexpected 304 Not Modified without a conditional request")
        }
        if pagesFetched == 1 {
            firstETag = raw.etag
            firstLastModified = raw.lastModified
        }
        let (source, empty) = try Fetcher.decoded(raw)
        current = source
        if empty {
            stopped = true
            settle()
            return nil
        }
        return source
    }

    /// Tells whether the page just read had records; a page without any ends the paging.
    package func pageHadRecords(_ hadRecords: Bool) {
        if !hadRecords { stopped = true }
    }

    /// All pages as one input: total bytes, and the sha256 of the pages' sha256 digests in page order.
    package var identity: InputIdentity {
        settle()
        var hasher = SHA256()
        for digest in pageDigests { hasher.update(Array(digest.utf8)) }
        return InputIdentity(location: location, bytes: bytes, sha256: pageDigests.isEmpty ? nil : hasher.finalizeHex(),
                             etag: firstETag, lastModified: firstLastModified)
    }

    /// Folds the current page's identity in once it has been read to its end.
    private func settle() {
        guard let page = current, let digest = page.identity.sha256 else { return }
        pageDigests.append(digest)
        bytes += page.identity.bytes ?? 0
        current = nil
    }
}
