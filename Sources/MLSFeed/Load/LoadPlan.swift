/// What a plan (`LoadOptions.plan`) found its run would do, beyond the counts of `LoadResult`: example keys of each
/// outcome and the price and status changes it would write.
package struct LoadPlan: Sendable, Hashable {
    /// Up to `LoadPlan.exampleLimit` keys (MLS numbers, agent ids) of each outcome, in key order.
    package struct Examples: Sendable, Hashable {
        package var inserted: [String] = []
        package var updated: [String] = []
        package var unchanged: [String] = []
        package var stale: [String] = []
        package var withdrawn: [String] = []

        package init() {}
    }

    /// One price or status change the run would record in `listing_history`.
    package struct Change: Sendable, Hashable {
        package var listingID: String
        /// `price`, `status`, `price+status`, `withdrawn` or `returned`.
        package var change: String
        package var oldPrice: String?
        package var newPrice: String?
        package var oldStatus: String?
        package var newStatus: String?
    }

    /// How many examples of each outcome a plan keeps.
    package static let exampleLimit = 10
    /// How many changes of each kind a plan quotes.
    package static let changeLimit = 10

    package var listings = Examples()
    /// Agents: inserted, updated and unchanged (agents are never stale nor withdrawn).
    package var agents = Examples()
    /// How many history rows of each kind (`price`, `status`, `price+status`, `withdrawn`, `returned`) the run
    /// would write.
    package var changeCounts: [String: Int] = [:]
    /// The first `changeLimit` changes of each kind, by kind then MLS number.
    package var changes: [Change] = []

    package init() {}
}
