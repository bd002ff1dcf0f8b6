import Postgres

extension LoadSession {
    /// A key sweep's batch: the keys of its listing records (not the deletions) copied into `seen_listings` as they
    /// come, queued like every COPY; nothing is staged.
    func copySweptKeys(_ records: [NormalizedRecord], _ data: Connection) throws {
        skippedListings += try data.enqueueCopy("COPY seen_listings (listing_id, ordinal) FROM STDIN") { writer in
            for record in records where record.entity == .listing {
                guard let key = record.key else { continue }
                writer.field(key)
                writer.field(record.ordinal)
                try writer.endRow()
            }
        }
    }

    /// A key sweep's end: the source's on-market listings whose keys the server no longer has are withdrawn by the
    /// full-dump rules (`reconciliation` decided whether it may; the withdraw guard counts the on-market listings
    /// the server still has), through the full run's withdrawal statement.
    func sweepListings(_ data: Connection, plan: Reconciliation, into result: inout LoadResult) throws {
        try data.settleCopies()
        // Nothing staged: the withdrawal's "not staged" test finds the table empty.
        try data.execute("ALTER TABLE staging_listings RENAME TO incoming_listings")
        try data.execute("CREATE INDEX ON seen_listings (listing_id)")
        try data.execute("ANALYZE seen_listings")
        let counts = try data.execute("""
            SELECT (SELECT count(DISTINCT listing_id) FROM seen_listings) AS keys,
                   count(*) FILTER (WHERE EXISTS (SELECT 1 FROM seen_listings s WHERE s.listing_id = l.listing_id))
                       AS carried,
                   count(*) AS active
            FROM listings l WHERE l.source = $1 AND l.off_market_at IS NULL
            """, [options.source])
        let keys = Int(counts.value(0, "keys") ?? "") ?? 0
        let carried = Int(counts.value(0, "carried") ?? "") ?? 0
        let active = Int(counts.value(0, "active") ?? "") ?? 0
        result.duplicates = skippedListings - keys
        result.unchanged = carried
        guard plan.withdraw, carried < active else { return }
        if !options.force { try checkWithdrawGuard(distinct: carried, active: active) }
        let withdrawn = try data.execute(MergeStatements.withdraw, [options.source, String(runID), plan.asOf])
        result.withdrawn = Int(withdrawn.rows.first?.first.flatMap { $0 } ?? "") ?? 0
    }

    /// Records when the resource's key sweep committed (`replication_state.swept_at`), in the sweep's transaction.
    func recordSweep(_ data: Connection, resource: String) throws {
        try data.execute("""
            INSERT INTO replication_state (pipeline, source, resource, run_id, swept_at)
            VALUES ($1, $2, $3, $4, now())
            ON CONFLICT (pipeline, source, resource) DO UPDATE SET swept_at = now()
            """, [options.pipeline, options.source, resource, String(runID)])
    }

    /// Seconds since the resource's last key sweep committed, by the database's clock; nil: never swept.
    static func secondsSinceSweep(_ connection: Connection, pipeline: String, source: String, resource: String)
        throws -> Double? {
        try connection.execute("""
            SELECT extract(epoch FROM now() - swept_at)::text FROM replication_state
            WHERE pipeline = $1 AND source = $2 AND resource = $3 AND swept_at IS NOT NULL
            """, [pipeline, source, resource]).rows.first?.first.flatMap { $0 }.flatMap(Double.init)
    }
}
