import Postgres

extension LoadSession {
    /// Merges the staged records, reconciles a full dump, records the run `succeeded` with its counts and
    /// commits, all in the run's one transaction. On any error (the withdraw guard included) the data is rolled
    /// back, the run is recorded `failed` with the error, and the error is rethrown.
    /// `droppedDuplicates`: copies the pipeline's in-memory dedupe already dropped; the ledger counts them with
    /// the ones the merge resolves (the result's `duplicates` stays the merge's own count).
    public func commit(read: Int, rejected: Int, droppedDuplicates: Int = 0, inputs: [InputIdentity],
                       timings: [String: Double], warnings: [String]) throws -> LoadResult {
        try finishRun(status: "succeeded", read: read, rejected: rejected, inputs: inputs, timings: timings,
                      warnings: warnings) { data in
            var result = LoadResult(runID: runID)
            try merge(data, into: &result)
            var recorded = result
            recorded.duplicates += droppedDuplicates
            return (result, recorded)
        }
    }

    /// Ends a run that had nothing to load (the input did not change since the last run): nothing is written
    /// but the ledger row, recorded `unchanged` with the inputs.
    public func commitUnchanged(inputs: [InputIdentity], timings: [String: Double],
                                warnings: [String]) throws -> LoadResult {
        try finishRun(status: "unchanged", read: 0, rejected: 0, inputs: inputs, timings: timings,
                      warnings: warnings) { _ in (LoadResult(runID: runID), LoadResult(runID: runID)) }
    }

    /// Does the run's last work, records its ledger row with `status` and commits, all in the run's one
    /// transaction; on any error rolls back, records the run `failed` and rethrows. `work` returns the result
    /// to hand back and the counts to record.
    private func finishRun(status: String, read: Int, rejected: Int, inputs: [InputIdentity],
                           timings: [String: Double], warnings: [String],
                           work: (Connection) throws -> (result: LoadResult, recorded: LoadResult)) throws
        -> LoadResult {
        let data = try activeData()
        do {
            let (result, recorded) = try work(data)
            try finishLedger(data, status: status, result: recorded, read: read, rejected: rejected,
                             inputs: inputs, timings: timings, warnings: warnings)
            try data.execute("COMMIT")
            finished = true
            self.data = nil
            releaseLedger()
            return result
        } catch {
            fail(String(describing: error))
            throw error
        }
    }

    private func merge(_ data: Connection, into result: inout LoadResult) throws {
        if let load = firstLoad {
            try mergeFirstLoad(data, load, into: &result)
        } else {
            try mergeListings(data, into: &result)
        }
        try mergeAgents(data, into: &result)
    }

    private func mergeListings(_ data: Connection, into result: inout LoadResult) throws {
        let source = options.source
        let run = String(runID)
        // Listings: duplicates resolved newest-wins, then the full-dump guard, then insert/update.
        let distinct: Int
        if listingsNeedResolving {
            distinct = try data.execute(StagingTables.resolveDuplicates(.listing)).affectedRows
        } else {
            // No key repeated and every record has its hash: staging already is the incoming set.
            try data.execute("ALTER TABLE staging_listings RENAME TO incoming_listings")
            distinct = stagedListings
        }
        try data.execute("CREATE INDEX ON incoming_listings (listing_id)")
        // Temporary tables have no statistics until analyzed: without them the planner guesses their size and
        // may scan all of listings to join a few thousand changed rows.
        try data.execute("ANALYZE incoming_listings (listing_id, modification_timestamp, content_hash)")
        // Listings sent as keys only (unchanged) count as present; one also staged in a changed copy counts once.
        var present = distinct
        if skippedListings > 0 {
            try data.execute("CREATE INDEX ON seen_listings (listing_id)")
            try data.execute("ANALYZE seen_listings")
            // A changed copy that loses to an unchanged (stored) copy of the same listing, by the dedupe rule
            // (newest modification_timestamp, then the later record), is a duplicate: it must not overwrite it.
            // A recognised copy is the stored row exactly, so its timestamp is the row's.
            present -= try data.execute("""
                DELETE FROM incoming_listings i USING seen_listings s, listings l
                WHERE s.listing_id = i.listing_id AND l.source = $1 AND l.listing_id = s.listing_id
                  AND (coalesce(l.modification_timestamp, '-infinity'), s.ordinal)
                      > (coalesce(i.modification_timestamp, '-infinity'), i.ordinal)
                """, [source]).affectedRows
            present += Int(try data.execute("""
                SELECT count(DISTINCT s.listing_id) FROM seen_listings s
                WHERE NOT EXISTS (SELECT 1 FROM incoming_listings i WHERE i.listing_id = s.listing_id)
                """).rows.first?.first.flatMap { $0 } ?? "") ?? 0
        }
        result.duplicates = stagedListings + skippedListings - present
        result.recognized = skippedListings
        let sourceHadListings = try hasRows(data, "listings")
        // A full dump: the source's on-market listings before the merge, and how many of them the dump carries.
        // When it carries them all, nothing can be withdrawn and the anti-join that looks for them is skipped.
        var activeBefore = 0
        var activeCarried = 0
        var offMarketBefore = 0
        if options.mode == .full && sourceHadListings {
            if let onMarket = recognition?.value.onMarket {
                // Read at the start; nothing has changed the source's rows since (the run's lock, and its own
                // changes come below).
                activeBefore = onMarket
            } else {
                activeBefore = Int(try data.execute(
                    "SELECT count(*) FROM listings WHERE source = $1 AND off_market_at IS NULL", [source]
                ).rows.first?.first.flatMap { $0 } ?? "") ?? 0
            }
            if !options.force { try checkWithdrawGuard(distinct: present, active: activeBefore) }
        }
        if sourceHadListings {
            let updated = try data.execute(MergeStatements.updateListings, [source, run])
            result.updated = Int(updated.value(0, "updated") ?? "") ?? 0
            result.stale = Int(updated.value(0, "stale") ?? "") ?? 0
            offMarketBefore = Int(updated.value(0, "off_market") ?? "") ?? 0
            result.inserted = try data.execute(MergeStatements.insertNew(.listing), [source, run]).affectedRows
            try data.execute(MergeStatements.refreshRawHashes, [source])
        } else {
            // A first load's listings went straight in (`FirstLoad`): anything staged here came with no write.
            result.inserted = try data.execute(MergeStatements.insertAll(.listing), [source, run]).affectedRows
        }
        result.unchanged = present - result.inserted - result.updated - result.stale
        // Every key present is recognised (on market by construction) or staged; a staged one was new (inserted),
        // off market before, or on market: so the dump carries this many of the on-market listings.
        activeCarried = present - result.inserted - offMarketBefore

        // A source that had no listings before this run has nothing to withdraw, nor one whose on-market
        // listings the dump all carries.
        if options.mode == .full && sourceHadListings && activeCarried < activeBefore {
            // The newest record of each key is kept, so this is the newest of the whole dump.
            let newest = try data.execute("""
                SELECT greatest(max(modification_timestamp), $1::timestamptz) FROM incoming_listings
                """, [skippedNewest]).rows.first?.first ?? nil
            let withdrawn = try data.execute(MergeStatements.withdraw, [source, run, newest])
            result.withdrawn = Int(withdrawn.rows.first?.first.flatMap { $0 } ?? "") ?? 0
        }
    }

    private func mergeAgents(_ data: Connection, into result: inout LoadResult) throws {
        let source = options.source
        let run = String(runID)
        // Agents: the last record of each agent id wins; no history, never withdrawn.
        let agents = try data.execute(StagingTables.resolveDuplicates(.agent)).affectedRows
        try data.execute("CREATE INDEX ON incoming_agents (agent_mls_id)")
        if try hasRows(data, "agents") {
            let updated = try data.execute(MergeStatements.updateAgents, [source, run])
            result.agentsUpdated = Int(updated.rows.first?.first.flatMap { $0 } ?? "") ?? 0
            result.agentsInserted = try data.execute(MergeStatements.insertNew(.agent), [source, run]).affectedRows
        } else {
            result.agentsInserted = try data.execute(MergeStatements.insertAll(.agent), [source, run]).affectedRows
        }
        result.agentsUnchanged = agents - result.agentsInserted - result.agentsUpdated
    }

    /// Throws when a full dump carries fewer than `withdrawGuard` of the source's active listings.
    private func checkWithdrawGuard(distinct: Int, active: Int) throws {
        guard Double(distinct) < options.withdrawGuard * Double(active) else { return }
        let share = Int((options.withdrawGuard * 100).rounded())
        throw LoadError("full dump holds \(distinct) listings, fewer than \(share)% of the \(active) active "
            + "listings of source \(options.source): refusing to withdraw the rest (a truncated download?); "
            + "rerun with --force to load it anyway")
    }

    func hasRows(_ data: Connection, _ table: String) throws -> Bool {
        try data.execute("SELECT EXISTS (SELECT 1 FROM \(table) WHERE source = $1)", [options.source])
            .rows.first?.first == "t"
    }

    /// The run's final ledger row, written in the run's transaction so counts and data commit together.
    private func finishLedger(_ data: Connection, status: String, result: LoadResult, read: Int, rejected: Int,
                              inputs: [InputIdentity], timings: [String: Double], warnings: [String]) throws {
        try data.execute("""
            UPDATE ingest_runs SET status = $2, finished_at = clock_timestamp(), inputs = $3::jsonb,
                read = $4, rejected = $5, duplicates = $6, inserted = $7, updated = $8, unchanged = $9,
                stale = $10, withdrawn = $11, agents_inserted = $12, agents_updated = $13,
                timings = $14::jsonb, warnings = $15::text[]
            WHERE id = $1
            """, [String(runID), status, LoadSession.inputsJSON(inputs), String(read), String(rejected),
                  String(result.duplicates), String(result.inserted), String(result.updated),
                  String(result.unchanged), String(result.stale), String(result.withdrawn),
                  String(result.agentsInserted), String(result.agentsUpdated), LoadSession.timingsJSON(timings),
                  TextArray.literal(warnings.map { ConnectionString.redacted($0) })])
    }

    /// `[{"location": ..., "bytes": ..., "sha256": ..., "etag": ..., "last_modified": ...}]`, locations redacted.
    static func inputsJSON(_ inputs: [InputIdentity]) -> String {
        func optional(_ text: String?) -> String { text.map(JSONText.string) ?? "null" }
        return "[" + inputs.map { input in
            "{\"location\":\(JSONText.string(ConnectionString.redacted(input.location))),"
                + "\"bytes\":\(input.bytes.map(String.init) ?? "null"),"
                + "\"sha256\":\(optional(input.sha256)),\"etag\":\(optional(input.etag)),"
                + "\"last_modified\":\(optional(input.lastModified))}"
        }.joined(separator: ",") + "]"
    }

    /// `{"stage": seconds, ...}` in key order.
    static func timingsJSON(_ timings: [String: Double]) -> String {
        "{" + timings.sorted { $0.key < $1.key }.map { key, seconds in
            JSONText.string(key) + ":" + (seconds.isFinite ? String(seconds) : "0")
        }.joined(separator: ",") + "}"
    }
}
