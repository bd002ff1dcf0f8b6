import Postgres

/// The first load of a source: its listings go straight into `listings` instead of through staging.
///
/// A source with no listings yet has nothing to compare against, so the first copy of each MLS number is copied
/// into `listings` itself (written once, not staged and then inserted), and only the repeats (about 1% of a
/// dump) are staged; the merge lets a staged repeat replace the copy it repeats when it wins the dedupe rule.
/// When the whole table is empty its indexes (the primary key too) are dropped before the first row and built
/// again at commit, in the run's transaction: one sort per index beats maintaining every index row by row (as
/// pgloader does). A failed run rolls all of it back.
struct FirstLoad {
    /// The MLS numbers copied so far; a false "maybe seen" only stages a record that needed no staging.
    var keys = KeyFilter()
    /// Listings copied straight into `listings`.
    var copied = 0
    /// Secondary indexes dropped for the load, to build again at commit.
    var droppedIndexes: [(name: String, definition: String)] = []
    /// The primary key constraint dropped for the load (name, definition), to add again (one sort) at commit.
    var droppedKey: (name: String, definition: String)?
}

extension LoadSession {
    /// Decides, at the first write, whether this run is the source's first load (then returns its state).
    func firstLoadIfEmpty(_ data: Connection) throws -> FirstLoad? {
        guard try !hasRows(data, "listings") else { return nil }
        var load = FirstLoad()
        if try data.execute("SELECT NOT EXISTS (SELECT 1 FROM listings)").rows.first?.first == "t",
           try takeEmptyListings(data) {
            load.droppedIndexes = try data.execute("""
                SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid)
                FROM pg_index i WHERE i.indrelid = 'listings'::regclass AND NOT i.indisprimary
                ORDER BY 1
                """).rows.compactMap { row in
                    guard let name = row[0], let definition = row[1] else { return nil }
                    return (name, definition)
                }
            for index in load.droppedIndexes { try data.execute("DROP INDEX \(index.name)") }
            // The key too: the first copies are unique by construction (`FirstLoad.keys`), and one sort at the end
            // beats inserting a million keys into the btree one by one.
            if let key = try data.execute("""
                SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint
                WHERE conrelid = 'listings'::regclass AND contype = 'p'
                """).rows.first, let name = key[0], let definition = key[1] {
                try data.execute("ALTER TABLE listings DROP CONSTRAINT \(name)")
                load.droppedKey = (name, definition)
            }
        }
        return load
    }

    /// Takes `listings` for this run alone (`ACCESS EXCLUSIVE`, until the commit) and says whether it is still
    /// empty: only then are its indexes dropped. Runs of other sources may load at the same time (several jobs or
    /// machines on a new database), each having read the empty table: one that waited for the whole table would
    /// deadlock with another doing the same. So it does not wait (`NOWAIT`, in a savepoint, so that a refusal ends
    /// nothing but the attempt), and it does not try while another source's run holds its source's lock (it would
    /// stop every such run at its first read of `listings` until this load commits): the indexes then stay, and
    /// are kept up row by row.
    private func takeEmptyListings(_ data: Connection) throws -> Bool {
        let others = try data.execute("""
            SELECT EXISTS (SELECT 1 FROM pg_locks
                           WHERE locktype = 'advisory' AND granted AND objsubid = 2
                             AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                             AND classid = $1::bigint::oid AND objid <> (hashtext($2)::bigint & 4294967295)::oid
                             AND objid <> $3::bigint::oid)
            """, [String(LoadSession.lockNamespace), LoadSession.lockName(options), String(Migrations.lockKey.1)])
        guard others.rows.first?.first == "f" else { return false }
        try data.execute("SAVEPOINT first_load")
        do {
            try data.execute("LOCK TABLE listings IN ACCESS EXCLUSIVE MODE NOWAIT")
        } catch let error as PostgresError where error.code == .lockNotAvailable {
            try data.execute("ROLLBACK TO SAVEPOINT first_load")
            try data.execute("RELEASE SAVEPOINT first_load")
            return false
        }
        try data.execute("RELEASE SAVEPOINT first_load")
        // Another run may have committed listings between the look and the lock.
        return try data.execute("SELECT NOT EXISTS (SELECT 1 FROM listings)").rows.first?.first == "t"
    }

    /// Copies the listings of `records` whose MLS number is new to the run straight into `listings`; returns the
    /// indices of the records left to stage (repeats, agents, records without a content hash), in order. Updates
    /// `firstLoad` in place (its filter is 8 MiB: a copy per batch would cost more than the batch).
    func copyFirstCopies(_ records: [NormalizedRecord], _ data: Connection) throws -> [Int] {
        var first: [Int] = []
        var rest: [Int] = []
        first.reserveCapacity(records.count)
        records.withUnsafeBufferPointer { records in
            for i in records.indices {
                if records[i].entity == .listing, let key = records[i].key, !records[i].contentHash.isEmpty,
                   firstLoad?.keys.insert(key) == true {
                    first.append(i)
                } else {
                    rest.append(i)
                }
            }
        }
        guard !first.isEmpty else { return rest }
        let copied = try copy(records, only: first, StagingTables.copyIntoListings, first: .source(options.source),
                              last: [runID, runID], staging: false, data)
        firstLoad?.copied += copied
        return rest
    }

    /// The merge of a first load: staged repeats replace the copy in `listings` when they win (newest
    /// modification timestamp, then the later record: a staged repeat is always the later one); repeats of no
    /// copied listing are inserted. Then the dropped indexes are built again.
    func mergeFirstLoad(_ data: Connection, _ load: FirstLoad, into result: inout LoadResult) throws {
        if let key = load.droppedKey {
            try data.execute("ALTER TABLE listings ADD CONSTRAINT \(key.name) \(key.definition)")
        }
        // The table just grew from nothing: without statistics the planner takes it for a few hundred rows, and
        // the repeats' merge below read the whole source into a hash (11 s of a 1M first load) instead of looking
        // up each repeat by key; the next run's merge would plan the same way until autovacuum got to it. Only the
        // columns the merges join and filter on (the wide text and jsonb ones cost most of a full ANALYZE;
        // autovacuum does them later); the repeats change about 1% of the rows, the index builds none.
        try data.execute("""
            ANALYZE listings (source, listing_id, modification_timestamp, content_hash, raw_hash, off_market_at)
            """)
        var insertedFromStaging = 0
        if stagedListings > 0 {
            try data.execute(StagingTables.resolveDuplicates(.listing))
            try data.execute("CREATE INDEX ON incoming_listings (listing_id)")
            try data.execute("ANALYZE incoming_listings (listing_id, modification_timestamp)")
            try data.execute(MergeStatements.replaceWithLaterCopies, [options.source])
            insertedFromStaging = try data.execute(MergeStatements.insertNew(.listing),
                                                   [options.source, String(runID)]).affectedRows
        }
        result.inserted = load.copied + insertedFromStaging
        result.duplicates = stagedListings - insertedFromStaging
        #if MLSFEED_TEST_HOOKS
        try TestPause.index.reach(connection: data)
        #endif
        for index in load.droppedIndexes { try data.execute(index.definition) }
    }
}
