extension Ledger {
    /// Runs that are never pruned, whatever their age: for each pipeline and source, its newest run (so `runs` and
    /// the metrics still say how each one last ended) and its newest `succeeded` or `unchanged` run (its last
    /// success); for each source, the runs the next run compares against: its newest `succeeded` run (change
    /// detection), the `succeeded` run with the newest as-of time and the reconciled one with the newest as-of
    /// time (an older dump never reverses a newer one). `running` runs are never pruned either.
    static let keptRuns = """
        SELECT id FROM (SELECT DISTINCT ON (pipeline, source) id FROM ingest_runs
                        ORDER BY pipeline, source, id DESC) AS newest
        UNION SELECT id FROM (SELECT DISTINCT ON (pipeline, source) id FROM ingest_runs
                              WHERE status IN ('succeeded', 'unchanged')
                              ORDER BY pipeline, source, id DESC) AS last_success
        UNION SELECT id FROM (SELECT DISTINCT ON (source) id FROM ingest_runs WHERE status = 'succeeded'
                              ORDER BY source, id DESC) AS compared
        UNION SELECT id FROM (SELECT DISTINCT ON (source) id FROM ingest_runs
                              WHERE status = 'succeeded' AND as_of IS NOT NULL
                              ORDER BY source, as_of DESC, id DESC) AS newest_as_of
        UNION SELECT id FROM (SELECT DISTINCT ON (source) id FROM ingest_runs
                              WHERE status = 'succeeded' AND reconciled AND as_of IS NOT NULL
                              ORDER BY source, as_of DESC, id DESC) AS newest_reconciled
        """

    /// The runs whose rejects go (`$1` the runs pruned, `$2` the rejects' cut-off or NULL), from the distinct run ids
    /// of `rejects`: a loose index scan on an index led by run_id (`rejects_run_order_idx`), one index probe per
    /// run, not a scan of every reject; each run is then looked up by its id alone (`ingest_runs_id_idx`).
    static let runsWithDoomedRejects = """
        WITH RECURSIVE runs AS (
            SELECT min(run_id) AS id FROM rejects
            UNION ALL
            SELECT (SELECT min(run_id) FROM rejects WHERE run_id > runs.id) FROM runs WHERE runs.id IS NOT NULL
        )
        SELECT runs.id FROM runs
        WHERE runs.id IS NOT NULL AND (
            runs.id = ANY($1::bigint[])
            OR NOT EXISTS (SELECT 1 FROM ingest_runs i WHERE i.id = runs.id)
            OR EXISTS (SELECT 1 FROM ingest_runs i WHERE i.id = runs.id AND i.status <> 'running'
                       AND i.started_at < $2::timestamptz))
        ORDER BY runs.id
        """

    /// Deletes the runs `$1` (ids, of any source) unless one is running: `ingest_runs_id_idx`.
    static let deleteRuns = "DELETE FROM ingest_runs WHERE id = ANY($1::bigint[]) AND status <> 'running'"

    /// Deletes at most `$2` rejects of the runs `$1`, each by its key `(source, id)`.
    static let deleteRejects = """
        DELETE FROM rejects WHERE (source, id) IN (
            SELECT source, id FROM rejects WHERE run_id = ANY($1::bigint[]) LIMIT $2)
        """

    /// Deletes ledger rows and rejects older than `policy`'s ages, `policy.batchSize` rows per statement; with
    /// `dryRun`, only counts what it would delete. Never touches `listings`, `agents` or `listing_history` (whose
    /// rows keep the ids of pruned runs). Runs in `keptRuns` stay. Rejects go with their run, and when their run
    /// started before the rejects' age, and when their run is no longer in the ledger. Deleting on a hot standby
    /// is refused before anything (`ReadOnlyStandby`); a dry run only reads, there too.
    package func prune(_ policy: PrunePolicy, dryRun: Bool = false) throws -> PruneResult {
        precondition(policy.batchSize > 0, "batch size must be positive")
        if !dryRun { try ReadOnlyStandby.refuse(connection) }
        // The cut-offs, fixed once so that every batch deletes by the same rule.
        let cutoffs = try connection.execute("""
            SELECT (now() - $1::bigint * interval '1 second')::text AS runs,
                   (now() - $2::bigint * interval '1 second')::text AS rejects
            """, [policy.runsOlderThan.map { String($0.seconds) }, policy.rejectsOlderThan.map { String($0.seconds) }])
        let runsCutoff = try ResultRow.all(cutoffs).first?.text("runs")
        let rejectsCutoff = try ResultRow.all(cutoffs).first?.text("rejects")

        var result = PruneResult()
        result.dryRun = dryRun
        var doomedRuns: [Int64] = []
        if let runsCutoff {
            let old = try connection.execute("""
                SELECT id, id IN (\(Self.keptRuns)) AS kept FROM ingest_runs
                WHERE started_at < $1::timestamptz AND status <> 'running'
                ORDER BY id
                """, [runsCutoff])
            for row in ResultRow.all(old) {
                if try row.bool("kept") == true { result.keptRuns += 1 } else { doomedRuns.append(try row.count("id")) }
            }
        }
        let rejectRuns = try connection.execute(Self.runsWithDoomedRejects,
                                                [TextArray.literal(doomedRuns.map(String.init)), rejectsCutoff])
        let rejectRunIDs = try ResultRow.all(rejectRuns).map { try $0.count("id") }

        if dryRun {
            result.runs = doomedRuns.count
            let counted = try connection.execute("SELECT count(*) AS n FROM rejects WHERE run_id = ANY($1::bigint[])",
                                                 [TextArray.literal(rejectRunIDs.map(String.init))])
            result.rejects = Int(try ResultRow.all(counted).first?.count("n") ?? 0)
            return result
        }
        var start = 0
        while start < doomedRuns.count {
            let batch = doomedRuns[start..<min(start + policy.batchSize, doomedRuns.count)]
            result.runs += try connection.execute(Self.deleteRuns, [TextArray.literal(batch.map(String.init))])
                .affectedRows
            start += policy.batchSize
        }
        let runList = TextArray.literal(rejectRunIDs.map(String.init))
        while !rejectRunIDs.isEmpty {
            let deleted = try connection.execute(Self.deleteRejects, [runList, String(policy.batchSize)])
                .affectedRows
            result.rejects += deleted
            if deleted < policy.batchSize { break }
        }
        return result
    }
}
