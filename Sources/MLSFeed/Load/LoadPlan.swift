/// What a plan (`LoadOptions.plan`) found its run would do, beyond the counts of `LoadResult`: example keys of each
/// outcome and the price and status changes it would write.
public struct LoadPlan: Sendable, Hashable {
    /// Up to `LoadPlan.exampleLimit` keys (MLS numbers, agent ids) of each outcome, in key order.
    public struct Examples: Sendable, Hashable {
        public var inserted: [String] = []
        public var updated: [String] = []
        public var unchanged: [String] = []
        public var stale: [String] = []
        public var withdrawn: [String] = []

        public init() {}
    }

    /// One price or status change the run would record in `listing_history`.
    public struct Change: Sendable, Hashable {
        public var listingID: String
        /// `price`, `status`, `price+status`, `withdrawn` or `returned`.
        public var change: String
        public var oldPrice: String?
        public var newPrice: String?
        public var oldStatus: String?
        public var newStatus: String?
    }

    /// How many examples of each outcome a plan keeps.
    public static let exampleLimit = 10
    /// How many changes of each kind a plan quotes.
    public static let changeLimit = 10

    public var listings = Examples()
    /// Agents: inserted, updated and unchanged (agents are never stale nor withdrawn).
    public var agents = Examples()
    /// How many history rows of each kind (`price`, `status`, `price+status`, `withdrawn`, `returned`) the run
    /// would write.
    public var changeCounts: [String: Int] = [:]
    /// The first `changeLimit` changes of each kind, by kind then MLS number.
    public var changes: [Change] = []

    public init() {}
}
