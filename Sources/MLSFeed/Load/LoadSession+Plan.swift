import Postgres

extension LoadSession {
    /// A plan's examples and changes, read in the run's transaction after the merge (before it rolls back): the
    /// rows the run wrote carry its id (0 for a plan) in `last_changed_run`, `first_seen_run` and
    /// `listing_history.run_id`; stale and unchanged listings are the incoming ones it left as they were.
    func readPlan(_ data: Connection) throws -> LoadPlan {
        try sendRecognisedKeys(data)
        var plan = LoadPlan()
        let parameters: [String?] = [options.source, String(runID), String(LoadPlan.exampleLimit)]
        let listings = try data.execute("""
            SELECT kind, listing_id FROM (
                SELECT CASE WHEN first_seen_run = $2 THEN 'inserted' WHEN off_market_at IS NOT NULL THEN 'withdrawn'
                            ELSE 'updated' END AS kind, listing_id,
                       row_number() OVER (PARTITION BY first_seen_run = $2, off_market_at IS NOT NULL
                                          ORDER BY listing_id) AS n
                FROM listings WHERE source = $1 AND last_changed_run = $2) AS changed
            WHERE n <= $3 ORDER BY kind, listing_id
            """, parameters)
        for row in listings.rows {
            guard let kind = row[0], let key = row[1] else { continue }
            switch kind {
            case "inserted": plan.listings.inserted.append(key)
            case "withdrawn": plan.listings.withdrawn.append(key)
            default: plan.listings.updated.append(key)
            }
        }
        let differs = "(l.off_market_at IS NOT NULL OR (i.absent = 0 AND l.content_hash <> i.content_hash) "
            + "OR (i.absent <> 0 AND \(MergeStatements.partialDiffers)))"
        plan.listings.stale = try keys(data, """
            SELECT i.listing_id FROM incoming_listings i
            JOIN listings l ON l.source = $1 AND l.listing_id = i.listing_id
            WHERE l.last_changed_run <> $2 AND \(differs)
            ORDER BY 1 LIMIT $3
            """, parameters)
        plan.listings.unchanged = try keys(data, """
            SELECT k.listing_id
            FROM (SELECT listing_id FROM seen_listings UNION SELECT listing_id FROM incoming_listings) AS k
            JOIN listings l ON l.source = $1 AND l.listing_id = k.listing_id
            LEFT JOIN incoming_listings i ON i.listing_id = k.listing_id
            WHERE l.last_changed_run <> $2 AND (i.listing_id IS NULL OR NOT \(differs))
            ORDER BY 1 LIMIT $3
            """, parameters)
        let agents = try data.execute("""
            SELECT kind, agent_mls_id FROM (
                SELECT CASE WHEN first_seen_run = $2 THEN 'inserted' ELSE 'updated' END AS kind, agent_mls_id,
                       row_number() OVER (PARTITION BY first_seen_run = $2 ORDER BY agent_mls_id) AS n
                FROM agents WHERE source = $1 AND last_changed_run = $2) AS changed
            WHERE n <= $3 ORDER BY kind, agent_mls_id
            """, parameters)
        for row in agents.rows {
            guard let kind = row[0], let key = row[1] else { continue }
            if kind == "inserted" { plan.agents.inserted.append(key) } else { plan.agents.updated.append(key) }
        }
        plan.agents.unchanged = try keys(data, """
            SELECT i.agent_mls_id FROM incoming_agents i
            JOIN agents a ON a.source = $1 AND a.agent_mls_id = i.agent_mls_id
            WHERE a.last_changed_run <> $2 ORDER BY 1 LIMIT $3
            """, parameters)
        let counts = try data.execute("""
            SELECT change, count(*) FROM listing_history WHERE run_id = $2 AND source = $1 GROUP BY change
            """, [options.source, String(runID)])
        for row in counts.rows {
            if let change = row[0], let count = row[1].flatMap({ Int($0) }) { plan.changeCounts[change] = count }
        }
        let changes = try data.execute("""
            SELECT listing_id, change, old_price::text, new_price::text, old_status, new_status FROM (
                SELECT h.*, row_number() OVER (PARTITION BY change ORDER BY listing_id, id) AS n
                FROM listing_history h WHERE run_id = $2 AND source = $1) AS changes
            WHERE n <= $3 ORDER BY change, listing_id, id
            """, [options.source, String(runID), String(LoadPlan.changeLimit)])
        plan.changes = changes.rows.compactMap { row in
            guard let key = row[0], let change = row[1] else { return nil }
            return LoadPlan.Change(listingID: key, change: change, oldPrice: row[2], newPrice: row[3],
                                   oldStatus: row[4], newStatus: row[5])
        }
        return plan
    }

    /// The first column of `sql`'s rows.
    private func keys(_ data: Connection, _ sql: String, _ parameters: [String?]) throws -> [String] {
        try data.execute(sql, parameters).rows.compactMap { $0.first ?? nil }
    }
}
