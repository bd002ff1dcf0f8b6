/// How a RESO Web API (OData) resource is read: the query, the request budgets, replication and deletes
/// (`source.http.odata`, `rate_limit`, `replication`, `deleted_when`).
package struct WebAPISettings: Sendable, Hashable {
    /// OData system query options sent with the first page (the server's `@odata.nextLink` carries them on).
    package struct Query: Sendable, Hashable {
        package var select: [String] = []
        package var filter: String?
        package var expand: [String] = []
        package var top: Int?
        package var orderBy: String?
        /// `$count=true`: ask for `@odata.count`, which servers send only when asked (a full run and a key sweep
        /// compare it with the records read).
        package var count = false

        package init() {}
    }

    /// Request budgets a provider publishes (MLS Grid: 2/s, 7,200/h, 40,000/day), counted by the client across
    /// runs of the source; nil: no limit of that kind.
    package struct RateLimit: Sendable, Hashable {
        package var perSecond: Double?
        package var perHour: Int?
        package var perDay: Int?

        package init(perSecond: Double? = nil, perHour: Int? = nil, perDay: Int? = nil) {
            self.perSecond = perSecond
            self.perHour = perHour
            self.perDay = perDay
        }
    }

    /// Replication from a position: each run asks only for what changed since the last record the run before
    /// loaded, in the order of `field` then `key` (see `ReplicationPosition`).
    package struct Replication: Sendable, Hashable {
        package var field: String
        /// Where the first run starts (an ISO timestamp); nil: from the beginning.
        package var start: String?
        /// The field that orders the records sharing a timestamp (`odata.orderby`'s second field, else the field the
        /// mapping's key is read from first); set when the pipeline is read, which knows the mapping.
        package var key = ""
        /// How far before the position a run that had caught up starts again (`overlap`, seconds): records the
        /// server commits late, with an earlier timestamp, are read then.
        package var overlap = 300
        /// How often a run also sweeps the resource's keys (`key_sweep.every`, seconds); nil: only
        /// `mlsfeed sweep`.
        package var sweepEvery: Int?

        package init(field: String, start: String? = nil) {
            self.field = field
            self.start = start
        }
    }

    /// Records marking a deletion (`MlgCanView: false`): their listing is withdrawn, never inserted.
    package struct Deletion: Sendable, Hashable {
        package var field: String
        /// The value (its text: `false`, `0`, ...) that marks a deletion, compared ignoring case.
        package var equals: String

        package init(field: String, equals: String) {
            self.field = field
            self.equals = equals
        }
    }

    package var query = Query()
    package var rateLimit: RateLimit?
    package var replication: Replication?
    package var deletion: Deletion?
    /// Pages read at most in one run (the last `@odata.nextLink` then makes the dump incomplete).
    package var maxPages = 1_000_000

    package init() {}
}
