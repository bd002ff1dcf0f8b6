import Foundation

/// How a pipeline's last invocation ended for one source, as the metrics file reports it: all of its units (the
/// inputs of a glob run one by one) together.
package struct RunMetrics: Sendable, Equatable {
    package var pipeline: String
    package var source: String
    /// The last unit's status.
    package var status: RunSummary.Status
    /// Why the last unit did not succeed.
    package var failure: RunSummary.Failure?
    /// The last unit's ledger id (nil when the run never reached the ledger).
    package var runID: Int64?
    /// When the invocation ended.
    package var finishedAt: Date
    /// The units' seconds, added up.
    package var seconds: Double
    /// When a run last ended `succeeded` or `unchanged`: this invocation's end when one of its units did, else
    /// what the caller found in the ledger (or in the previous metrics file); nil when unknown.
    package var lastSuccess: Date?
    /// Records by outcome (`recordOutcomes`), added up over the units.
    package var records: [String: Int]
    /// Agents by outcome (`agentOutcomes`), added up over the units.
    package var agents: [String: Int]

    /// The outcomes of `records`, in order.
    package static let recordOutcomes = ["read", "rejected", "inserted", "updated", "unchanged", "stale", "withdrawn"]
    /// The outcomes of `agents`, in order.
    package static let agentOutcomes = ["inserted", "updated", "unchanged"]

    /// A run that ended before any unit reported (the database unreachable at the start, a bad input list).
    package init(pipeline: String, source: String, failure: RunSummary.Failure, finishedAt: Date) {
        self.pipeline = pipeline
        self.source = source
        status = failure == .interrupted ? .interrupted : .failed
        self.failure = failure
        self.finishedAt = finishedAt
        seconds = 0
        records = Dictionary(uniqueKeysWithValues: Self.recordOutcomes.map { ($0, 0) })
        agents = Dictionary(uniqueKeysWithValues: Self.agentOutcomes.map { ($0, 0) })
    }

    /// One entry per pipeline and source of `summaries` (one invocation's units, in the order they ran), in order of
    /// first appearance.
    package static func of(_ summaries: [RunSummary], finishedAt: Date) -> [RunMetrics] {
        var order: [String] = []
        var grouped: [String: [RunSummary]] = [:]
        for summary in summaries {
            let key = summary.pipeline + "\u{0}" + summary.source
            if grouped[key] == nil { order.append(key) }
            grouped[key, default: []].append(summary)
        }
        return order.map { key in
            let units = grouped[key]!
            let last = units.last!
            var metrics = RunMetrics(pipeline: last.pipeline, source: last.source, failure: .input,
                                     finishedAt: finishedAt)
            metrics.status = last.status
            metrics.failure = last.status == .failed || last.status == .interrupted ? last.failure ?? .input : nil
            metrics.runID = last.runID
            metrics.seconds = units.reduce(0) { $0 + $1.seconds }
            if units.contains(where: { $0.status == .succeeded || $0.status == .unchanged }) {
                metrics.lastSuccess = finishedAt
            }
            func sum(_ count: (RunSummary) -> Int) -> Int { units.reduce(0) { $0 + count($1) } }
            metrics.records = ["read": sum(\.read), "rejected": sum(\.rejected),
                               "inserted": sum(\.load.inserted), "updated": sum(\.load.updated),
                               "unchanged": sum(\.load.unchanged), "stale": sum(\.load.stale),
                               "withdrawn": sum(\.load.withdrawn)]
            metrics.agents = ["inserted": sum(\.load.agentsInserted), "updated": sum(\.load.agentsUpdated),
                              "unchanged": sum(\.load.agentsUnchanged)]
            return metrics
        }
    }

}
