import Postgres

extension LoadSession {
    /// Merges the staged records, reconciles a full dump, records the run `succeeded` with its counts and
    /// commits, all in the run's one transaction. On any error (a safety rule included) the data is rolled back,
    /// the run is recorded `failed` with the error and what it saw, and the error is rethrown.
    /// `totals.droppedDuplicates`: copies the pipeline's in-memory dedupe already dropped; the ledger counts them
    /// with the ones the merge resolves (the result's `duplicates` stays the merge's own count).
    package func commit(_ totals: RunTotals) throws -> LoadResult {
        try finishRun(status: totals.paused == nil ? "succeeded" : "paused", totals: totals) { data in
            var result = LoadResult(runID: runID)
            // A full run's candidates for withdrawal are looked for beside the merge, on the core it leaves idle,
            // from before the first statement here waits for the merges queued during the parse.
            let search = options.mode == .full && firstLoad == nil && !options.sweep ? startWithdrawalSearch() : nil
            defer { search?.abandon() }
            let plan = try reconciliation(data, totals, into: &result)
            if options.sweep {
                try sweepListings(data, plan: plan, into: &result)
            } else {
                try merge(data, plan: plan, search: plan.withdraw ? search : nil, into: &result)
            }
            if deletedListings > 0 { result.withdrawn += try applyDeletions(data, asOf: plan.asOf) }
            if let resource = totals.replicationResource {
                result.replicationMark = try moveReplicationMark(data, resource: resource,
                                                                 to: totals.replicationPosition)
            }
            if let resource = totals.sweepResource { try recordSweep(data, resource: resource) }
            if let paused = totals.paused { result.notes.append("paused: \(paused)") }
            var recorded = result
            recorded.duplicates += totals.droppedDuplicates
            return (result, recorded)
        }
    }

    /// Withdraws the listings the run's deletions name (`deleted_when`): on the market, and not modified after
    /// the deletion; a listing never seen is not inserted. Returns the rows withdrawn.
    private func applyDeletions(_ data: Connection, asOf: String) throws -> Int {
        let withdrawn = try data.execute(MergeStatements.applyDeletions, [options.source, String(runID), asOf])
        return Int(withdrawn.rows.first?.first.flatMap { $0 } ?? "") ?? 0
    }

    /// Writes the resource's position as the run leaves it (see `ReplicationPosition`), in the run's transaction;
    /// returns its mark.
    private func moveReplicationMark(_ data: Connection, resource: String, to position: ReplicationPosition?) throws
        -> String? {
        try data.execute("""
            INSERT INTO replication_state (pipeline, source, resource, mark, mark_key, caught_up, run_id)
            VALUES ($1, $2, $3, $4::timestamptz, $5, $6::boolean, $7)
            ON CONFLICT (pipeline, source, resource) DO UPDATE SET
                mark = excluded.mark, mark_key = excluded.mark_key, caught_up = excluded.caught_up,
                run_id = excluded.run_id, updated_at = now()
            RETURNING to_char(mark AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
            """, [options.pipeline, options.source, resource, position?.timestamp, position?.key,
                  (position?.caughtUp ?? true) ? "true" : "false", String(runID)]).rows.first?.first ?? nil
    }

    /// A replicated resource's position, as the last committed run left it (nil: none has loaded anything).
    static func replicationPosition(_ connection: Connection, pipeline: String, source: String, resource: String)
        throws -> ReplicationPosition? {
        let row = try connection.execute("""
            SELECT to_char(mark AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), mark_key, caught_up
            FROM replication_state WHERE pipeline = $1 AND source = $2 AND resource = $3 AND mark IS NOT NULL
            """, [pipeline, source, resource]).rows.first
        guard let row, let mark = row[0] else { return nil }
        return ReplicationPosition(timestamp: mark, key: row[1], caughtUp: row[2] != "f")
    }

    /// `commit` with the counts given one by one.
    package func commit(read: Int, rejected: Int, droppedDuplicates: Int = 0, inputs: [InputIdentity],
                       timings: [String: Double], warnings: [String]) throws -> LoadResult {
        try commit(RunTotals(read: read, rejected: rejected, droppedDuplicates: droppedDuplicates, inputs: inputs,
                             timings: timings, warnings: warnings))
    }

    /// Ends a run that had nothing to load (its input is the one run `matched` loaded): nothing is written but the
    /// ledger row, recorded `unchanged` with the inputs and the run it matched.
    package func commitUnchanged(inputs: [InputIdentity], matched: Int64? = nil, timings: [String: Double] = [:],
                                warnings: [String] = []) throws -> LoadResult {
        matchedRun = matched
        return try finishRun(status: "unchanged", totals: RunTotals(inputs: inputs, timings: timings,
                                                                    warnings: warnings)) { _ in
            (LoadResult(runID: runID), LoadResult(runID: runID))
        }
    }

    /// Does the run's last work, records its ledger row with `status` and commits, all in the run's one
    /// transaction; on any error rolls back, records the run `failed` and rethrows. `work` returns the result
    /// to hand back and the counts to record.
    private func finishRun(status: String, totals: RunTotals,
                           work: (Connection) throws -> (result: LoadResult, recorded: LoadResult)) throws
        -> LoadResult {
        let data = try activeData()
        let result: LoadResult
        do {
            let (done, recorded) = try work(data)
            if options.plan {
                // A plan reads what it did, then undoes it all: no ledger row, nothing committed.
                var planned = done
                if status != "unchanged" { planned.plan = try readPlan(data) }
                try data.execute("ROLLBACK")
                result = planned
            } else {
                #if MLSFEED_TEST_HOOKS
                try TestPause.ledger.reach(connection: data)
                #endif
                try LoadSession.recordRun(data, source: options.source, id: runID, status: status, result: recorded,
                                          totals: totals, matched: matchedRun)
                try canceller.beginCommit()
                try data.execute("COMMIT")
                result = done
            }
        } catch {
            fail(String(describing: error), totals: totals)
            throw error
        }
        // Committed: a stop from here on changes nothing; the run reports what it did.
        finished = true
        self.data = nil
        closeRecognisedSpool()
        #if MLSFEED_TEST_HOOKS
        try? TestPause.committed.reach(cancellation: cancellation)
        #endif
        releaseLedger()
        return result
    }

    /// What a full run may do at the end, decided before anything is merged.
    struct Reconciliation {
        /// The dump's as-of time (UTC canonical text).
        var asOf: String
        /// The newest as-of time of the source's earlier successful runs (nil: none).
        var sourceAsOf: String?
        /// Whether to look for listings to withdraw.
        var withdraw: Bool
    }

    /// The dump's as-of time and whether it may withdraw: only a complete dump (an incomplete one is refused, or
    /// with `on_incomplete: incremental` upserted only) that is not older than the last dump that reconciled the
    /// source. Throws a refusal for an incomplete dump under `on_incomplete: fail`.
    private func reconciliation(_ data: Connection, _ totals: RunTotals, into result: inout LoadResult) throws
        -> Reconciliation {
        let completeness = totals.completeness
        let verdict = try options.onIncomplete.verdict(mode: options.mode, sweep: options.sweep,
                                                       completeness: completeness)
        let asOf: String
        if let header = totals.headerAsOf ?? newestTimestamp {
            asOf = header
        } else {
            // No header and no timestamps: the dump is as of now.
            asOf = try data.execute("""
                SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
                """).rows.first?.first.flatMap { $0 } ?? ""
        }
        result.asOf = asOf
        // A resource feed's dumps (offices, open houses, media) are compared with its own pipeline's only: another
        // table's as-of time says nothing about them.
        let pipeline = options.entity == .listing || options.entity == .agent ? nil : options.pipeline
        let earlier = try data.execute("""
            SELECT to_char(max(as_of) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
                   (SELECT id FROM ingest_runs r
                    WHERE r.source = $1 AND r.status = 'succeeded' AND r.reconciled AND r.id <> $2
                      AND r.as_of > $3::timestamptz AND ($4::text IS NULL OR r.pipeline = $4)
                    ORDER BY r.as_of DESC, r.id DESC LIMIT 1)
            FROM ingest_runs WHERE source = $1 AND status = 'succeeded' AND id <> $2
              AND ($4::text IS NULL OR pipeline = $4)
            """, [options.source, String(runID), asOf, pipeline]).rows.first
        let sourceAsOf = earlier?[0] ?? nil
        var withdraw = verdict.withdraw
        if let note = verdict.note { result.notes.append(note) }
        if withdraw, let newer = earlier?[1] ?? nil {
            withdraw = false
            result.notes.append("dump as of \(asOf) is older than the dump of run \(newer), which reconciled the "
                + "source: nothing withdrawn (an older dump never reverses a newer one)")
        }
        result.reconciled = withdraw
        return Reconciliation(asOf: asOf, sourceAsOf: sourceAsOf, withdraw: withdraw)
    }

    /// `search`: the withdrawal's candidates looked for beside the merge (`WithdrawalSearch`), if any.
    private func merge(_ data: Connection, plan: Reconciliation, search: WithdrawalSearch?,
                       into result: inout LoadResult) throws {
        switch options.entity {
        case .office, .openHouse, .media:
            try data.settleCopies()
            try mergeResource(options.entity, data, plan: plan, into: &result)
        case .listing, .agent:
            if let load = firstLoad {
                try mergeFirstLoad(data, load, plan: plan, into: &result)
            } else {
                try mergeListings(data, plan: plan, search: search, into: &result)
                if options.ownsChildren { try mergeChildren(data, plan: plan, firstLoad: false, into: &result) }
            }
        }
        try mergeShared(.agent, data, into: &result)
        if options.entity == .listing && options.embedded.contains(.office) {
            try mergeShared(.office, data, into: &result)
        }
    }

    /// Merges the media and open houses of the listings whose copy the run's merge kept (`written_listings`): each
    /// such listing's rows become exactly those its copy lists (upserted by key; its other rows deleted), for the
    /// kinds some record of the feed carries at all. Recognised and stale copies leave their listing's rows alone.
    func mergeChildren(_ data: Connection, plan: Reconciliation, firstLoad: Bool,
                       into result: inout LoadResult) throws {
        let kinds = [Entity.media, .openHouse].filter { options.embedded.contains($0) && carried & $0.carriedBit != 0 }
        guard !kinds.isEmpty else { return }
        let source = options.source
        let run = String(runID)
        let written = MergeStatements.writtenListings(firstLoad: firstLoad, afterEarlyMerges: mergedEarly)
        if stagedListings > 0 {
            try data.execute(written, firstLoad ? [source] : [source, run, plan.asOf, plan.sourceAsOf])
        } else {
            try data.execute("CREATE TEMP TABLE written_listings (listing_id text, ordinal bigint) ON COMMIT DROP")
        }
        try data.execute("CREATE INDEX ON written_listings (listing_id)")
        try data.execute("ANALYZE written_listings")
        for entity in kinds {
            var counts = result.rows[entity] ?? RowCounts()
            let incoming = try data.execute(MergeStatements.resolveChildren(entity)).affectedRows
            try data.execute("CREATE INDEX ON \(StagingTables.incoming(entity)) (\(entity.keyColumn))")
            try data.execute("ANALYZE \(StagingTables.incoming(entity))")
            counts.deleted += try count(data, MergeStatements.deleteUnlisted(entity), [source])
            let replaced = try data.execute(MergeStatements.replaceRows(entity, checkFreshness: false), [source, run])
            let updated = Int(replaced.value(0, "updated") ?? "") ?? 0
            let inserted = try data.execute(MergeStatements.insertNew(entity), [source, run]).affectedRows
            counts.updated += updated
            counts.inserted += inserted
            counts.unchanged += incoming - inserted - updated
            result.rows[entity] = counts
        }
    }

    /// Merges a resource feed's rows (offices, open houses, media) as listings are: the newest copy of each key
    /// (then the later), written when it changed and is not older than the stored row (else `stale`); a complete
    /// full dump then deletes the source's rows it no longer carries, under the withdraw guard.
    private func mergeResource(_ entity: Entity, _ data: Connection, plan: Reconciliation,
                               into result: inout LoadResult) throws {
        let source = options.source
        let run = String(runID)
        var counts = RowCounts()
        let staged = stagedRows[entity, default: 0]
        let stored = Int(try data.execute("SELECT count(*) FROM \(entity.table) WHERE source = $1", [source])
            .rows.first?.first.flatMap { $0 } ?? "") ?? 0
        let incoming = try data.execute(StagingTables.resolveDuplicates(entity)).affectedRows
        try data.execute("CREATE INDEX ON \(StagingTables.incoming(entity)) (\(entity.keyColumn))")
        try data.execute("ANALYZE \(StagingTables.incoming(entity))")
        result.duplicates = staged - incoming
        if plan.withdraw && stored > 0 && !options.force {
            try checkWithdrawGuard(distinct: incoming, active: stored, rows: entity)
        }
        if stored > 0 {
            let replaced = try data.execute(MergeStatements.replaceRows(entity, checkFreshness: true), [source, run])
            counts.updated = Int(replaced.value(0, "updated") ?? "") ?? 0
            counts.stale = Int(replaced.value(0, "stale") ?? "") ?? 0
            counts.inserted = try data.execute(MergeStatements.insertNew(entity), [source, run]).affectedRows
        } else {
            counts.inserted = try data.execute(MergeStatements.insertAll(entity), [source, run]).affectedRows
        }
        counts.unchanged = incoming - counts.inserted - counts.updated - counts.stale
        if plan.withdraw && stored > 0 {
            counts.deleted = try count(data, MergeStatements.deleteMissing(entity), [source, run, plan.asOf])
        }
        result.rows[entity] = counts
    }

    /// The one count `sql` returns.
    private func count(_ data: Connection, _ sql: String, _ parameters: [String?]) throws -> Int {
        Int(try data.execute(sql, parameters).rows.first?.first.flatMap { $0 } ?? "") ?? 0
    }

    private func mergeListings(_ data: Connection, plan: Reconciliation, search: WithdrawalSearch?,
                               into result: inout LoadResult) throws {
        #if MLSFEED_TEST_HOOKS
        try TestPause.merge.reach(connection: data)
        #endif
        let source = options.source
        let run = String(runID)
        result.mergedAgainAtEnd = try undoRepeatedEarlyMerges(data)
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
        // may scan all of listings to join a few thousand changed rows. A sample of 3,000 rows (statistics target
        // 10) gives the row count within a few rows and the keys as unique; the default 30,000 copied every row of
        // a 1M delta's 25,000 (0.1-0.4 s, against under 0.03 s).
        try data.executeScript("""
            SET default_statistics_target = 10;
            ANALYZE incoming_listings (listing_id, modification_timestamp, content_hash, absent);
            RESET default_statistics_target
            """)
        // Listings sent as keys only (unchanged) count as present; one also staged in a changed copy counts once.
        var present = distinct
        if skippedListings > 0 && !recognisedKeys.mayRepeat {
            // Recognised keys known distinct: the listings present are the staged ones and the recognised ones,
            // less those in both. One hash join finds those (the few staged keys against the many recognised),
            // where indexing a million keys and counting them distinct took about 1.4 s.
            present += skippedListings
            if distinct > 0, try sendStagedRecognisedKeys(data, staged: distinct) > 0 {
                let counts = try data.execute(MergeStatements.resolveRecognisedOverlap, [source])
                present -= Int(counts.value(0, "overlap") ?? "") ?? 0
            }
        } else if skippedListings > 0 {
            try indexSeenListings(data)
            // A changed copy that loses to an unchanged (stored) copy of the same listing, by the dedupe rule
            // (newest modification_timestamp, then the later record), is a duplicate: it must not overwrite it.
            // A recognised copy is the stored row exactly, so its timestamp is the row's.
            present -= try data.execute(MergeStatements.dropLosingChangedCopies(from: "seen_listings"), [source])
                .affectedRows
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
        if plan.withdraw && sourceHadListings {
            if let onMarket = recognition?.value.onMarket {
                // Read at the start; nothing has changed the source's rows since (the run's lock, and its own
                // changes come below).
                activeBefore = onMarket
            } else {
                // Less the listings inserted while the parse went on: they were not on the market before the run.
                activeBefore = (Int(try data.execute(
                    "SELECT count(*) FROM listings WHERE source = $1 AND off_market_at IS NULL", [source]
                ).rows.first?.first.flatMap { $0 } ?? "") ?? 0) - earlyMerges.current.inserted
            }
            if !options.force { try checkWithdrawGuard(distinct: present, active: activeBefore) }
        }
        if sourceHadListings {
            // The listings merged during the parse are stored as they come: the statements leave them out.
            let early = mergedEarly
            if early { try data.execute("ANALYZE early_merged") }
            let updated = try data.execute(MergeStatements.updateListings(afterEarlyMerges: early),
                                           [source, run, plan.asOf, plan.sourceAsOf])
            result.updated = Int(updated.value(0, "updated") ?? "") ?? 0
            result.stale = Int(updated.value(0, "stale") ?? "") ?? 0
            offMarketBefore = Int(updated.value(0, "off_market") ?? "") ?? 0
            result.inserted = try data.execute(MergeStatements.insertNew(.listing, afterEarlyMerges: early),
                                               [source, run]).affectedRows
            try data.execute(MergeStatements.refreshRawHashes(afterEarlyMerges: early), [source])
        } else {
            // A first load's listings went straight in (`FirstLoad`): anything staged here came with no write.
            result.inserted = try data.execute(MergeStatements.insertAll(.listing), [source, run]).affectedRows
        }
        // What the merges during the parse wrote (the statements above left those listings as they found them).
        let written = earlyMerges.current
        result.updated += written.updated
        result.inserted += written.inserted
        result.mergedWhileParsing = written.updated + written.inserted
        result.unchanged = present - result.inserted - result.updated - result.stale
        // Every key present is recognised (on market by construction) or staged; a staged one was new (inserted),
        // off market before, or on market: so the dump carries this many of the on-market listings.
        activeCarried = present - result.inserted - offMarketBefore

        // A source that had no listings before this run has nothing to withdraw, nor one whose on-market
        // listings the dump all carries.
        if plan.withdraw && sourceHadListings && activeCarried < activeBefore {
            var statement = MergeStatements.withdraw
            var parameters: [String?] = [source, run, plan.asOf]
            // Listings stored without a fingerprint are looked for too, when the source has any.
            let withoutFingerprint = recognition.map { ($0.value.onMarket ?? 0) > $0.value.count } ?? false
            if let keys = search?.keys() {
                goneSearched = true
                unnamedSent = true
                statement = MergeStatements.withdrawFound(withoutFingerprint: withoutFingerprint)
                parameters.append(TextArray.literal(keys))
            } else if try sendUnnamedListings(data) {
                statement = MergeStatements.withdrawUnnamed(withoutFingerprint: withoutFingerprint)
            } else if skippedListings > 0 {
                try indexSeenListings(data)
            }
            let withdrawn = try data.execute(statement, parameters)
            result.withdrawn = Int(withdrawn.rows.first?.first.flatMap { $0 } ?? "") ?? 0
        }
    }

    /// Undoes the merges during the parse of the listings staged more than once (a repeat farther apart than the
    /// dedupe window, which only the end's merge resolves): their stored rows are put back as they were and their
    /// history rows of this run removed, so the end's merge meets them as if nothing had been merged early.
    /// Returns how many.
    private func undoRepeatedEarlyMerges(_ data: Connection) throws -> Int {
        try data.settleCopies()
        guard listingsNeedResolving, mergedEarly else { return 0 }
        let removed = try data.execute(MergeStatements.removeRepeatedEarlyMerges, [options.source, String(runID)])
        let updated = removed.rows.compactMap { row in row[1] == "f" ? row[0] : nil }
        earlyMerges.undo(updated: updated.count, inserted: removed.rows.count - updated.count)
        if !updated.isEmpty {
            try data.execute(MergeStatements.restoreRepeatedOriginals, [TextArray.literal(updated)])
        }
        return removed.rows.count
    }

    /// Merges the agents (and the offices listings name): each column the latest value the run gave it
    /// (`StagingTables.resolveShared`), a column it gave none keeps its stored value; no history, never withdrawn.
    private func mergeShared(_ entity: Entity, _ data: Connection, into result: inout LoadResult) throws {
        let source = options.source
        let run = String(runID)
        let incoming = try data.execute(StagingTables.resolveShared(entity)).affectedRows
        try data.execute("CREATE INDEX ON \(StagingTables.incoming(entity)) (\(entity.keyColumn))")
        var counts = RowCounts()
        if try hasRows(data, entity.table) {
            counts.updated = try count(data, MergeStatements.updateShared(entity), [source, run])
            counts.inserted = try data.execute(MergeStatements.insertNew(entity), [source, run]).affectedRows
        } else {
            counts.inserted = try data.execute(MergeStatements.insertAll(entity), [source, run]).affectedRows
        }
        counts.unchanged = incoming - counts.inserted - counts.updated
        if entity == .agent {
            (result.agentsInserted, result.agentsUpdated, result.agentsUnchanged) =
                (counts.inserted, counts.updated, counts.unchanged)
        } else if incoming > 0 {
            result.rows[entity] = counts
        }
    }

    /// Throws a refusal when a full dump carries fewer than `withdrawGuard` of the source's active listings (a key
    /// sweep: when the server has fewer of them; a resource feed, `rows`: fewer than that share of its stored rows).
    func checkWithdrawGuard(distinct: Int, active: Int, rows entity: Entity? = nil) throws {
        guard Double(distinct) < options.withdrawGuard * Double(active) else { return }
        let share = Int((options.withdrawGuard * 100).rounded())
        if let entity {
            throw LoadError("full dump holds \(distinct) \(entity.table) rows, fewer than \(share)% of the \(active) "
                + "stored for source \(options.source): refusing to delete the rest (a truncated download?); rerun "
                + "with --force to load it anyway", kind: .refusal)
        }
        if options.sweep {
            throw LoadError("key sweep found \(distinct) of the \(active) active listings of source "
                + "\(options.source) on the server, fewer than \(share)%: refusing to withdraw the rest (a server "
                + "answering for part of its listings?); rerun mlsfeed sweep with --force to withdraw them anyway",
                kind: .refusal)
        }
        throw LoadError("full dump holds \(distinct) listings, fewer than \(share)% of the \(active) active "
            + "listings of source \(options.source): refusing to withdraw the rest (a truncated download?); "
            + "rerun with --force to load it anyway", kind: .refusal)
    }

    func hasRows(_ data: Connection, _ table: String) throws -> Bool {
        try data.execute("SELECT EXISTS (SELECT 1 FROM \(table) WHERE source = $1)", [options.source])
            .rows.first?.first == "t"
    }

    /// The run's ledger row written at its end (`$1` its id, `$26` its source, the rest what it saw and did), found
    /// by its key `(source, id)`.
    static let ledgerRowUpdate = """
        UPDATE ingest_runs SET status = $2, finished_at = clock_timestamp(), inputs = $3::jsonb,
            read = $4, rejected = $5, duplicates = $6, inserted = $7, updated = $8, unchanged = $9,
            stale = $10, withdrawn = $11, agents_inserted = $12, agents_updated = $13, agents_unchanged = $14,
            timings = $15::jsonb, warnings = $16::text[], sample_rejects = $17::text[],
            removed_characters = $18, complete = $19, incomplete_reasons = $20::text[], as_of = $21,
            reconciled = $22, matched_run = $23, error = $24, replication_mark = $25::timestamptz
        WHERE source = $26 AND id = $1
        """

    /// Writes a run's ledger row: its status and everything it saw and did. A successful run's row is written in
    /// the run's transaction, so counts and data commit together; a failed run's on the ledger connection.
    static func recordRun(_ connection: Connection, source: String, id: Int64, status: String, result: LoadResult,
                          totals: RunTotals, matched: Int64? = nil, error: String? = nil) throws {
        let warnings = (totals.warnings + result.notes).map { Redactor.scrub($0) }
        try connection.execute(ledgerRowUpdate, [
            String(id), status, inputsJSON(totals.inputs), String(totals.read), String(totals.rejected),
            String(result.duplicates), String(result.inserted), String(result.updated),
            String(result.unchanged), String(result.stale), String(result.withdrawn),
            String(result.agentsInserted), String(result.agentsUpdated), String(result.agentsUnchanged),
            timingsJSON(totals.timings.merging(rowCounts(result)) { stage, _ in stage }),
            TextArray.literal(warnings),
            TextArray.literal(totals.sampleRejects.map { Redactor.scrub($0) }),
            String(totals.removedCharacters), status == "unchanged" ? nil
                : (totals.completeness.isComplete ? "true" : "false"),
            TextArray.literal(totals.completeness.reasons), result.asOf, result.reconciled ? "true" : "false",
            matched.map(String.init), error.map { Redactor.scrub($0) }, result.replicationMark, source,
        ])
    }

    /// `[{"location": ..., "bytes": ..., "sha256": ..., "etag": ..., "last_modified": ...}]`, locations redacted.
    static func inputsJSON(_ inputs: [InputIdentity]) -> String {
        func optional(_ text: String?) -> String { text.map(JSONText.string) ?? "null" }
        return "[" + inputs.map { input in
            "{\"location\":\(JSONText.string(Redactor.scrub(input.location))),"
                + "\"bytes\":\(input.bytes.map(String.init) ?? "null"),"
                + "\"sha256\":\(optional(input.sha256)),\"etag\":\(optional(input.etag)),"
                + "\"last_modified\":\(optional(input.lastModified))}"
        }.joined(separator: ",") + "]"
    }

    /// The counts of `result.rows` as the ledger keeps them in `timings`: `media.inserted` and so on, for each
    /// table the run wrote rows of.
    static func rowCounts(_ result: LoadResult) -> [String: Double] {
        var counts: [String: Double] = [:]
        for (entity, rows) in result.rows {
            for (name, value) in rows.named { counts[entity.table + "." + name] = Double(value) }
        }
        return counts
    }

    /// `{"stage": seconds, ...}` in key order; the row counts (`media.inserted`) as whole numbers.
    static func timingsJSON(_ timings: [String: Double]) -> String {
        "{" + timings.sorted { $0.key < $1.key }.map { key, seconds in
            let count = key.contains(".") && seconds.isFinite ? Int(exactly: seconds) : nil
            return JSONText.string(key) + ":" + (count.map(String.init) ?? (seconds.isFinite ? String(seconds) : "0"))
        }.joined(separator: ",") + "}"
    }
}
