/// How a RESO Web API (OData) resource is read: the query, the request budgets, replication and deletes
/// (`source.http.odata`, `rate_limit`, `replication`, `deleted_when`).
public struct WebAPISettings: Sendable, Hashable {
    /// OData system query options sent with the first page (the server's `@odata.nextLink` carries them on).
    public struct Query: Sendable, Hashable {
        public var select: [String] = []
        public var filter: String?
        public var expand: [String] = []
        public var top: Int?
        public var orderBy: String?

        public init() {}
    }

    /// Request budgets a provider publishes (MLS Grid: 2/s, 7,200/h, 40,000/day), counted by the client across
    /// runs of the source; nil: no limit of that kind.
    public struct RateLimit: Sendable, Hashable {
        public var perSecond: Double?
        public var perHour: Int?
        public var perDay: Int?

        public init(perSecond: Double? = nil, perHour: Int? = nil, perDay: Int? = nil) {
            self.perSecond = perSecond
            self.perHour = perHour
            self.perDay = perDay
        }
    }

    /// High-water-mark replication: the largest `field` value loaded is kept, and the next run asks only for what
    /// changed since (`field ge mark`).
    public struct Replication: Sendable, Hashable {
        public var field: String
        /// Where the first run starts (an ISO timestamp); nil: from the beginning.
        public var start: String?

        public init(field: String, start: String? = nil) {
            self.field = field
            self.start = start
        }
    }

    /// Records marking a deletion (`MlgCanView: false`): their listing is withdrawn, never inserted.
    public struct Deletion: Sendable, Hashable {
        public var field: String
        /// The value (its text: `false`, `0`, ...) that marks a deletion, compared ignoring case.
        public var equals: String

        public init(field: String, equals: String) {
            self.field = field
            self.equals = equals
        }
    }

    public var query = Query()
    public var rateLimit: RateLimit?
    public var replication: Replication?
    public var deletion: Deletion?
    /// Pages read at most in one run (the last `@odata.nextLink` then makes the dump incomplete).
    public var maxPages = 1_000_000

    public init() {}
}
