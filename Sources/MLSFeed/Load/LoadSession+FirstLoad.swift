import Postgres

/// The first load of a source: its listings go straight into `listings` instead of through staging.
///
/// A source with no listings yet has nothing to compare against, so the first copy of each MLS number is copied
/// into `listings` itself (written once, not staged and then inserted), and only the repeats (about 1% of a
/// dump) are staged; the merge lets a staged repeat replace the copy it repeats when it wins the dedupe rule.
/// When the whole table is empty its indexes (the primary key too) are dropped before the first row and built
/// again at commit, in the run's transaction: one sort per index beats maintaining every index row by row (as
/// pgloader does). A failed run rolls all of it back.
///
/// A listing's media and open houses follow it: those of a first copy go straight into their table too, when it
/// holds no row of the source (its indexes dropped and built again the same way when it is empty), unless their
/// key may have been copied already (a repeat, or a false positive of `keys`): those are staged, and the merge
/// writes them unless a repeat of their listing replaced it.
struct FirstLoad {
    /// The MLS numbers copied so far; a false "maybe seen" only stages a record that needed no staging.
    var keys = KeyFilter()
    /// Listings copied straight into `listings`.
    var copied = 0
    /// Secondary indexes dropped for the load, to build again at commit.
    var droppedIndexes: [(name: String, definition: String)] = []
    /// The primary key constraint dropped for the load (name, definition), to add again (one sort) at commit.
    var droppedKey: (name: String, definition: String)?
    /// The tables of a listing's rows (media, open houses) that the first copies' rows go straight into.
    var children: [Entity: ChildTable] = [:]

    /// A table of a listing's rows during a first load: the keys copied into it and the indexes dropped.
    struct ChildTable {
        var keys = KeyFilter()
        var copied = 0
        var droppedIndexes: [(name: String, definition: String)] = []
        var droppedKey: (name: String, definition: String)?
    }
}

extension LoadSession {
    /// Decides, at the first write, whether this run is the source's first load (then returns its state).
    func firstLoadIfEmpty(_ data: Connection) throws -> FirstLoad? {
        guard try !hasRows(data, "listings") else { return nil }
        var load = FirstLoad()
        let children = [Entity.media, .openHouse].filter { options.embedded.contains($0) }
        let tookTables = try data.execute("SELECT NOT EXISTS (SELECT 1 FROM listings)").rows.first?.first == "t"
            && takeEmptyListings(children.map(\.table), data)
        if tookTables { (load.droppedIndexes, load.droppedKey) = try dropIndexesIfEmpty("listings", data) }
        for entity in children {
            guard try !hasRows(data, entity.table) else { continue }
            var table = FirstLoad.ChildTable()
            if tookTables { (table.droppedIndexes, table.droppedKey) = try dropIndexesIfEmpty(entity.table, data) }
            load.children[entity] = table
        }
        return load
    }

    /// Takes `listings` and `children` (the tables of its listings' media and open houses) for this run alone
    /// (`ACCESS EXCLUSIVE`, until the commit) and says whether `listings` is still empty: only then are its indexes
    /// dropped (and those of an empty child table). Runs of other sources may load at the same time (several jobs or
    /// machines on a new database), each having read the empty table: one that waited for the whole table would
    /// deadlock with another doing the same. So it does not wait (`NOWAIT`, in a savepoint, so that a refusal ends
    /// nothing but the attempt), and it does not try while another source's run holds its source's lock (it would
    /// stop every such run at its first read of `listings` until this load commits): the indexes then stay, and
    /// are kept up row by row.
    private func takeEmptyListings(_ children: [String], _ data: Connection) throws -> Bool {
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
            let tables = (["listings"] + children).joined(separator: ", ")
            try data.execute("LOCK TABLE \(tables) IN ACCESS EXCLUSIVE MODE NOWAIT")
        } catch let error as PostgresError where error.code == .lockNotAvailable {
            try data.execute("ROLLBACK TO SAVEPOINT first_load")
            try data.execute("RELEASE SAVEPOINT first_load")
            return false
        }
        try data.execute("RELEASE SAVEPOINT first_load")
        // Another run may have committed listings between the look and the lock.
        return try data.execute("SELECT NOT EXISTS (SELECT 1 FROM listings)").rows.first?.first == "t"
    }

    /// Drops the indexes of `table` (the primary key too) when it holds no row at all, returning them to build
    /// again at commit.
    private func dropIndexesIfEmpty(_ table: String, _ data: Connection) throws
        -> ([(name: String, definition: String)], (name: String, definition: String)?) {
        guard try data.execute("SELECT NOT EXISTS (SELECT 1 FROM \(table))").rows.first?.first == "t" else {
            return ([], nil)
        }
        let indexes: [(name: String, definition: String)] = try data.execute("""
            SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid)
            FROM pg_index i WHERE i.indrelid = $1::regclass AND NOT i.indisprimary
            ORDER BY 1
            """, [table]).rows.compactMap { row in
                guard let name = row[0], let definition = row[1] else { return nil }
                return (name, definition)
            }
        for index in indexes { try data.execute("DROP INDEX \(index.name)") }
        // The key too: the first copies are unique by construction (`FirstLoad.keys`), and one sort at the end
        // beats inserting a million keys into the btree one by one.
        var dropped: (name: String, definition: String)?
        if let key = try data.execute("""
            SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint
            WHERE conrelid = $1::regclass AND contype = 'p'
            """, [table]).rows.first, let name = key[0], let definition = key[1] {
            try data.execute("ALTER TABLE \(table) DROP CONSTRAINT \(name)")
            dropped = (name, definition)
        }
        return (indexes, dropped)
    }

    /// Copies the listings of `records` whose MLS number is new to the run straight into `listings`, with their
    /// media and open houses (see `FirstLoad`); returns the indices of the records left to stage (repeats, agents,
    /// records without a content hash), in order. Updates `firstLoad` in place (its filters are 8 MiB each: a copy
    /// per batch would cost more than the batch).
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
        if options.ownsChildren { try copyFirstChildren(of: records, first, data) }
        return rest
    }

    /// The media and open houses of the first copies at `indices`: straight into their table when it has no row of
    /// the source and their key is surely new to the run, else staged (`listing_copied`).
    private func copyFirstChildren(of records: [NormalizedRecord], _ indices: [Int], _ data: Connection) throws {
        guard firstLoad?.children.isEmpty == false else {
            return try stageChildren(of: records, indices, listingCopied: true, data)
        }
        try records.withUnsafeBufferPointer { records in
            for entity in [Entity.media, .openHouse] where options.embedded.contains(entity) {
                // Which rows go straight in, decided once: a key's first offer to the filter tells.
                var straight: [(listing: Int, child: Int)] = []
                var staged: [(listing: Int, child: Int)] = []
                for i in indices {
                    for (j, child) in records[i].children.enumerated() where child.entity == entity {
                        if let key = child.key, firstLoad?.children[entity]?.keys.insert(key) == true {
                            straight.append((i, j))
                        } else {
                            staged.append((i, j))
                        }
                    }
                }
                for (rows, direct) in [(straight, true), (staged, false)] where !rows.isEmpty {
                    let sql = direct ? StagingTables.copyInto(entity) : StagingTables.copy(entity)
                    let count = try copy(sql, count: rows.count, entity: entity,
                                         first: direct ? .source(options.source) : .ordinal,
                                         last: direct ? [runID, runID] : [], staging: !direct, data) { row in
                        for (i, j) in rows {
                            guard try row(records[i].children[j], true) else { return }
                        }
                    }
                    if direct {
                        firstLoad?.children[entity]?.copied += count
                    } else {
                        stagedRows[entity, default: 0] += count
                    }
                }
            }
        }
    }

    /// The merge of a first load: staged repeats replace the copy in `listings` when they win (newest
    /// modification timestamp, then the later record: a staged repeat is always the later one); repeats of no
    /// copied listing are inserted. Then the dropped indexes are built again, and the listings' media and open
    /// houses merged.
    func mergeFirstLoad(_ data: Connection, _ load: FirstLoad, plan: Reconciliation,
                        into result: inout LoadResult) throws {
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
        for (entity, table) in load.children.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            if let key = table.droppedKey {
                try data.execute("ALTER TABLE \(entity.table) ADD CONSTRAINT \(key.name) \(key.definition)")
            }
            for index in table.droppedIndexes { try data.execute(index.definition) }
            try data.execute("ANALYZE \(entity.table) (source, \(entity.keyColumn), listing_id)")
            if table.copied > 0 { result.rows[entity, default: RowCounts()].inserted += table.copied }
        }
        try mergeChildren(data, plan: plan, firstLoad: true, into: &result)
    }
}
