import Foundation

/// One run in full, as `mlsfeed runs show` prints it.
package struct LedgerRunDetail: Sendable {
    /// Seconds one stage was busy.
    package struct Timing: Sendable, Equatable {
        package var stage: String
        package var seconds: Double
    }

    package var run: LedgerRun
    /// What was read: location (secrets masked), bytes, sha256, ETag, Last-Modified.
    package var inputs: [InputIdentity]
    /// Busy seconds per stage, in pipeline order (fetch, parse, normalize, validate, dedupe, load).
    package var timings: [Timing]
    /// What the run did to `offices`, `media` and `open_houses` (kept in `timings` as `media.inserted`, ...).
    package var rows: [Entity: RowCounts] = [:]
    package var warnings: [String]
    /// The first rejects, compiler-style.
    package var sampleRejects: [String]
    /// The dump's as-of time (its header time, else its newest modification timestamp, else when it was loaded).
    package var asOf: Date?
    /// Whether the dump was read whole; nil for an `unchanged` run (nothing was read).
    package var complete: Bool?
    package var incompleteReasons: [String]
    /// Whether the run looked for listings to withdraw (a complete full dump not older than the source's newest).
    package var reconciled: Bool
    /// The run an `unchanged` run matched.
    package var matchedRun: Int64?
    /// The rows `rejects` holds for this run (0 once pruned).
    package var storedRejects: Int64

    /// One stored input, as `LoadSession` writes it.
    private struct StoredInput: Decodable {
        var location: String
        var bytes: Int64?
        var sha256: String?
        var etag: String?
        var last_modified: String?
    }

    init(_ row: ResultRow) throws {
        run = try LedgerRun(row)
        inputs = try (row.json("inputs", as: [StoredInput].self) ?? []).map {
            InputIdentity(location: $0.location, bytes: $0.bytes, sha256: $0.sha256, etag: $0.etag,
                          lastModified: $0.last_modified)
        }
        let order = StageSettings.stageNames
        let stored = try row.json("timings", as: [String: Double].self) ?? [:]
        for (key, value) in stored where key.contains(".") {
            let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
            guard let entity = Entity.allCases.first(where: { $0.table == parts[0] }) else { continue }
            var counts = rows[entity] ?? RowCounts()
            let count = Int(value)
            switch parts[1] {
            case "inserted": counts.inserted = count
            case "updated": counts.updated = count
            case "unchanged": counts.unchanged = count
            case "stale": counts.stale = count
            case "deleted": counts.deleted = count
            default: continue
            }
            rows[entity] = counts
        }
        timings = stored.filter { !$0.key.contains(".") }
            .map { Timing(stage: $0.key, seconds: $0.value) }
            .sorted { (order.firstIndex(of: $0.stage) ?? order.count, $0.stage)
                < (order.firstIndex(of: $1.stage) ?? order.count, $1.stage) }
        warnings = try row.json("warnings", as: [String].self) ?? []
        sampleRejects = try row.json("sample_rejects", as: [String].self) ?? []
        asOf = try row.date("as_of")
        complete = try row.bool("complete")
        incompleteReasons = try row.json("incomplete_reasons", as: [String].self) ?? []
        reconciled = try row.bool("reconciled") ?? false
        matchedRun = try row.int("matched_run")
        storedRejects = try row.count("stored_rejects")
    }
}
