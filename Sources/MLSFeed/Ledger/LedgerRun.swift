import Foundation

/// One run of the ledger as `mlsfeed runs` lists it: who, when, how it ended and what it counted.
package struct LedgerRun: Sendable, Equatable {
    package var id: Int64
    package var pipeline: String
    package var source: String
    /// `full` or `incremental`.
    package var mode: String
    /// `running`, `succeeded`, `failed`, `interrupted` or `unchanged`.
    package var status: String
    package var startedAt: Date
    /// Nil while the run is running (or when it died without a word and no later run has marked it yet).
    package var finishedAt: Date?
    package var counts: RunCounts
    /// Why the run failed (secrets redacted).
    package var error: String?

    /// How long the run took, once it finished.
    package var seconds: Double? { finishedAt.map { $0.timeIntervalSince(startedAt) } }

    /// The SELECT list that `init(_:)` reads.
    static let columns = "id, pipeline, source, mode, status, extract(epoch FROM started_at) AS started_at, "
        + "extract(epoch FROM finished_at) AS finished_at, \(RunCounts.columns), error"

    init(_ row: ResultRow) throws {
        id = try row.count("id")
        pipeline = try row.string("pipeline")
        source = try row.string("source")
        mode = try row.string("mode")
        status = try row.string("status")
        guard let started = try row.date("started_at") else { throw LoadError("ledger column started_at is NULL") }
        startedAt = started
        finishedAt = try row.date("finished_at")
        counts = try RunCounts(row)
        error = try row.text("error")
    }
}
