import Digest
import Foundation
import HTTPClient

/// A RESO Web API (OData) resource read page by page: the first request is the resource URL with the OData query
/// (and the replication filter from the resource's position, `ReplicationPosition.filter`), every next one the
/// `@odata.nextLink` the page before gave, until a page gives none. Requests are paced and counted against the
/// provider's budgets (`RequestBudget`); an OAuth2 token is fetched when needed and once more when the server
/// refuses it.
///
/// Drive it like `PagedSource`: read each page to its end, then tell `pageRead(nextLink:)` what the parser found.
package final class ODataSource {
    /// The first request's URL, secrets masked.
    package let location: String
    package private(set) var pagesFetched = 0
    /// Set when a request budget ran out: paging stopped at a page boundary, and may resume then.
    package private(set) var paused: RequestBudgetPause?
    /// True when paging stopped at `max_pages` with a next page still announced.
    package private(set) var stoppedAtMaxPages = false
    /// The replicated resource's position the run started from (nil: not replicated, or never run).
    package let position: ReplicationPosition?

    private let base: String
    private let settings: FetchSettings
    private let api: WebAPISettings
    private let client: HTTPClient
    private let spool: SpoolDirectory
    private let cancellation: Cancellation
    private let budget: RequestBudget?
    private let token: OAuth2Token?
    private var next: String?
    private var started = false
    private var lastRequest: Double?
    private var current: (any ChunkSource)?
    private var pageDigests: [String] = []
    private var bytes: Int64 = 0

    /// `base` is the resource URL; `position` the replicated resource's position to resume from (nil: from
    /// `replication.start`).
    package init(base: String, settings: FetchSettings, position: ReplicationPosition?, budget: RequestBudget?,
                 cancellation: Cancellation) throws {
        guard let api = settings.webAPI else { throw FetchError("\(Redactor.redactURL(base)): not an OData source") }
        self.base = base
        self.settings = settings
        self.api = api
        self.cancellation = cancellation
        self.budget = budget
        self.position = position
        client = try Fetcher.client()
        spool = try SpoolDirectory(path: settings.spoolDirectory)
        if case .oauth2(let grant) = settings.auth {
            token = OAuth2Token(grant: grant, settings: settings, client: client)
        } else {
            token = nil
        }
        var first = settings
        first.params += Self.query(api, position: position)
        location = try HTTPRequestPlan(base: base, settings: first, conditional: nil).location
        next = base
        firstSettings = first
    }

    private let firstSettings: FetchSettings

    /// `$select`, `$filter` (the pipeline's, and the replication position's), `$expand`, `$top`, `$orderby`,
    /// `$count`.
    static func query(_ api: WebAPISettings, position: ReplicationPosition?) -> [(String, String)] {
        var query: [(String, String)] = []
        if !api.query.select.isEmpty { query.append(("$select", api.query.select.joined(separator: ","))) }
        var filters: [String] = []
        if let filter = api.query.filter { filters.append("(\(filter))") }
        if let replication = api.replication, let resume = ReplicationPosition.filter(from: position, replication) {
            // Its own parentheses when it has alternatives, so the pipeline's filter applies to both.
            filters.append(resume.contains(" or ") && !filters.isEmpty ? "(\(resume))" : resume)
        }
        if !filters.isEmpty { query.append(("$filter", filters.joined(separator: " and "))) }
        if !api.query.expand.isEmpty { query.append(("$expand", api.query.expand.joined(separator: ","))) }
        if let top = api.query.top { query.append(("$top", String(top))) }
        if let orderBy = api.query.orderBy { query.append(("$orderby", orderBy)) }
        if api.query.count { query.append(("$count", "true")) }
        return query
    }

    /// The next page's bytes, or nil when paging is over (no next link, `max_pages`, or a budget ran out).
    package func nextPage() throws -> (any ChunkSource)? {
        settle()
        guard let url = next else { return nil }
        guard pagesFetched < api.maxPages else {
            stoppedAtMaxPages = true
            return nil
        }
        next = nil
        if started { try checkOrigin(of: url) }
        var pageSettings = started ? settings : firstSettings
        if started {
            // A next link carries the query itself; only a query API key must be added again.
            pageSettings.params = []
        }
        started = true
        do {
            let raw = try fetch(url, settings: pageSettings)
            pagesFetched += 1
            let (source, empty) = try Fetcher.decoded(raw)
            current = source
            if empty {
                settle()
                return nil
            }
            return source
        } catch let pause as RequestBudgetPause {
            paused = pause
            return nil
        }
    }

    /// What the parser found in the page just read: the page after it, if any.
    package func pageRead(nextLink: String?) {
        guard let nextLink, !nextLink.isEmpty else { return }
        // A relative link resolves against the resource URL.
        next = URL(string: nextLink, relativeTo: URL(string: base))?.absoluteString ?? nextLink
    }

    /// Refuses a next link that leaves the configured URL's origin (scheme, host and port): every request carries
    /// the source's credentials, which are sent to that origin only. The error names the origins, never the link
    /// (its query may hold a token).
    private func checkOrigin(of link: String) throws {
        guard let origin = HTTPOrigin(url: base) else { return }
        guard let target = HTTPOrigin(url: link) else {
            throw FetchError("\(location): refused the @odata.nextLink of page \(pagesFetched): not an http(s) URL")
        }
        guard target == origin else {
            throw FetchError("\(location): refused the @odata.nextLink of page \(pagesFetched): it leads to "
                + "\(target), another origin than the configured \(origin), and credentials are sent to their own "
                + "origin only")
        }
    }

    /// All pages as one input: total bytes, and the sha256 of the pages' sha256 digests in page order.
    package var identity: InputIdentity {
        settle()
        var hasher = SHA256()
        for digest in pageDigests { hasher.update(Array(digest.utf8)) }
        return InputIdentity(location: location, bytes: bytes,
                             sha256: pageDigests.isEmpty ? nil : hasher.finalizeHex())
    }

    /// Secrets to mask in anything printed about this source (the OAuth2 secret and token included).
    package var redactor: Redactor { Redactor(secrets: settings.secrets + (token?.secrets ?? [])) }

    /// One page: paced, counted, with a fresh token after a 401 (once).
    private func fetch(_ url: String, settings pageSettings: FetchSettings) throws -> HTTPChunkSource {
        for attempt in 1...2 {
            var requestSettings = pageSettings
            if let token { requestSettings.auth = .bearer(try token.current(cancellation: cancellation)) }
            let plan = try HTTPRequestPlan(base: url, settings: requestSettings, conditional: nil)
            do {
                let result = try Fetcher.get(plan, settings: requestSettings, client: client, spool: spool,
                                             cancellation: cancellation, admit: { try self.admit() })
                guard case .body(let source) = result else {
                    throw FetchError("GET \(plan.location): unexpected 304 Not Modified without a conditional request")
                }
                return source
            } catch let error as FetchError where error.status == 401 && token != nil && attempt == 1 {
                settings.log?(redactor.redact("GET \(plan.location): HTTP 401: fetching a new OAuth2 token"))
                token?.invalidate()
            }
        }
        throw FetchError("\(location): the server refused a fresh OAuth2 token")
    }

    /// Waits for the per-second pace, then asks the budget for the request.
    private func admit() throws {
        if let perSecond = api.rateLimit?.perSecond, let last = lastRequest {
            let wait = 1 / perSecond - (Self.now() - last)
            if wait > 0 { try cancellation.sleep(seconds: wait) }
        }
        try budget?.admit()
        lastRequest = Self.now()
    }

    private static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }

    private func settle() {
        guard let page = current, let digest = page.identity.sha256 else { return }
        pageDigests.append(digest)
        bytes += page.identity.bytes ?? 0
        current = nil
    }
}

/// Admits a source's requests against budgets that outlive a run (kept in the database by the load side).
package protocol RequestBudget: AnyObject {
    /// Counts one request, or throws `RequestBudgetPause` when it would exceed a budget.
    func admit() throws
}

/// A request budget is used up: the run stops at a page boundary and may resume at `until`.
package struct RequestBudgetPause: Error, Sendable, Equatable, CustomStringConvertible {
    /// When the exhausted window ends (UTC, ISO 8601).
    package var until: String
    /// Which budget: `7200 requests per hour`.
    package var budget: String

    package init(until: String, budget: String) {
        self.until = until
        self.budget = budget
    }

    package var description: String {
        "the request budget of \(budget) is used up; the run stopped at a page boundary and may resume after \(until)"
    }
}
